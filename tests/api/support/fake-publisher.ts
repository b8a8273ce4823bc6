/** A stand-in for the storefront's snapshot in API tests: pages that render on command, kept folders, a live build id. */
import type { BuildChanges } from '../../../src/lib/contract/answers.ts';
import type { Publisher } from '../../../src/server/publishing/publishing.ts';

export const BUILD_TOKEN = 'build-token-of-the-api-tests-0123456789';

export class FakePublisher implements Publisher {
  readonly token = BUILD_TOKEN;
  /** The build switched to last. */
  live: string | null = null;
  /** The builds rendered and not pruned ("on disk"). */
  readonly folders = new Set<string>();
  pages = 4;
  /** What the next renders report against the live build. */
  changes: BuildChanges = { added: 1, changed: 2, removed: 0 };
  /** The message the next render fails with (as a page answering 500 would). */
  failNext: string | null = null;
  #held: Promise<void> | null = null;

  /** Holds every render before its first page until the answer is called. */
  hold(): () => void {
    let release!: () => void;
    this.#held = new Promise((resolve) => (release = resolve));
    return () => {
      this.#held = null;
      release();
    };
  }

  /** Whether each render was asked to render every page, in order. */
  readonly fullRenders: boolean[] = [];

  async render(
    id: string,
    onProgress: (done: number, total: number) => void,
    options: { full: boolean },
  ): Promise<{ pages: number; changes: BuildChanges }> {
    this.fullRenders.push(options.full);
    await this.#held;
    const failure = this.failNext;
    this.failNext = null;
    for (let done = 1; done <= this.pages; done++) {
      if (failure && done === this.pages) throw new Error(`${failure}\n    at renderOne (snapshot.ts:1:1)`);
      onProgress(done, this.pages);
    }
    this.folders.add(id);
    return { pages: this.pages, changes: this.changes };
  }

  async has(id: string): Promise<boolean> {
    return this.folders.has(id);
  }

  async switchTo(id: string): Promise<void> {
    this.live = id;
  }

  async prune(keep: ReadonlySet<string>): Promise<void> {
    for (const id of this.folders) if (!keep.has(id)) this.folders.delete(id);
  }
}
