import { mkdir, readdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { StaticFolder } from './static-files.ts';

const CURRENT = 'current';

/**
 * The live snapshot build: `{buildsDir}/current` is a symlink to `{buildsDir}/{id}`.
 * Switching renames a fresh symlink over it, which is atomic, so no request sees half a build.
 */
export class BuildPointer {
  readonly buildsDir: string;
  #checkedAt = Number.NEGATIVE_INFINITY;
  #id: string | null = null;
  #folder: StaticFolder | null = null;
  readonly #folderOptions: ConstructorParameters<typeof StaticFolder>[1];

  constructor(buildsDir: string, folderOptions: ConstructorParameters<typeof StaticFolder>[1] = {}) {
    this.buildsDir = path.resolve(buildsDir);
    this.#folderOptions = folderOptions;
  }

  /** The live build's folder, re-read at most twice a second so a switch by another process is seen quickly. */
  async current(now = Date.now()): Promise<StaticFolder | null> {
    if (now - this.#checkedAt < 500) return this.#folder;
    this.#checkedAt = now;
    let id: string | null;
    try {
      id = path.basename(await readlink(path.join(this.buildsDir, CURRENT)));
    } catch {
      id = null;
    }
    if (id !== this.#id) {
      this.#id = id;
      this.#folder = id ? new StaticFolder(path.join(this.buildsDir, id), this.#folderOptions) : null;
    }
    return this.#folder;
  }

  /** `current()` without waiting, while its last look is fresh; undefined when it must look again. */
  currentIfFresh(now = Date.now()): StaticFolder | null | undefined {
    return now - this.#checkedAt < 500 ? this.#folder : undefined;
  }

  get currentId(): string | null {
    return this.#id;
  }

  /** Points `current` at build `id` and removes builds older than the previous one. */
  async switchTo(id: string): Promise<void> {
    await mkdir(this.buildsDir, { recursive: true });
    const temporary = path.join(this.buildsDir, `.current-${process.pid}-${Date.now()}`);
    await symlink(id, temporary);
    await rename(temporary, path.join(this.buildsDir, CURRENT));
    this.#checkedAt = Number.NEGATIVE_INFINITY;
    await this.#prune(id);
  }

  /** Keeps the live build and the one before it (open tabs may still fetch its payloads). */
  async #prune(liveId: string): Promise<void> {
    const names = (await readdir(this.buildsDir)).filter((name) => name !== CURRENT && !name.startsWith('.'));
    const older = names.filter((name) => name !== liveId).sort();
    for (const name of older.slice(0, -1)) await rm(path.join(this.buildsDir, name), { recursive: true, force: true });
  }
}
