/** A stand-in for the storefront's snapshot in API tests: pages that render on command, and a live build id. */
import type { Publisher } from '../../../src/server/publishing/publishing.ts';

export const BUILD_TOKEN = 'build-token-of-the-api-tests-0123456789';

export class FakePublisher implements Publisher {
  readonly token = BUILD_TOKEN;
  /** The build switched to last. */
  live: string | null = null;
  pages = 4;
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

  async render(_id: string, onProgress: (done: number, total: number) => void): Promise<{ pages: number }> {
    await this.#held;
    const failure = this.failNext;
    this.failNext = null;
    for (let done = 1; done <= this.pages; done++) {
      if (failure && done === this.pages) throw new Error(`${failure}\n    at renderOne (snapshot.ts:1:1)`);
      onProgress(done, this.pages);
    }
    return { pages: this.pages };
  }

  async switchTo(id: string): Promise<void> {
    this.live = id;
  }
}
