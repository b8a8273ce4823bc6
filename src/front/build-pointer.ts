import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readlink, rename, rm, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { constants, setPriority } from 'node:os';
import { StaticFolder } from './static-files.ts';
import { MANIFEST_FILE } from './build-manifest.ts';
import { buildOfEntry } from './build-record.ts';

const CURRENT = 'current';
/** Build ids are made by publishing (`newBuildId`): nothing else names a folder here. */
const BUILD_ID = /^[\w-]{1,64}$/;
/**
 * A pruned entry is renamed to this prefix at once and deleted afterwards (ADR 208): deleting a 10,000-page
 * build takes seconds an editor waiting for Go live should not. Hidden, so it is never taken for a build.
 */
const PRUNED_PREFIX = '.pruned-';
/**
 * The newest pruned build is kept under this prefix instead of deleted, for the next incremental build to
 * recycle (docs/decisions/220-recycled-build-folders.md). Hidden, so it is never taken for a build.
 */
const SPARE_PREFIX = '.spare-';

/**
 * The live snapshot build and the kept ones beside it (docs/decisions/208-preview-and-live-build.md).
 * The database says which build is live; this process serves it from `{buildsDir}/{id}` as soon as it
 * hears of the switch (`show`). `{buildsDir}/current` is a symlink to the live folder, renamed over
 * atomically by the process that switched: start-up reads it when the database names no build yet.
 */
export class BuildPointer {
  readonly buildsDir: string;
  #id: string | null = null;
  #version = Number.NEGATIVE_INFINITY;
  #folder: StaticFolder | null = null;
  /** Folders of kept builds, opened when a payload or a preview names them. */
  readonly #kept = new Map<string, StaticFolder>();
  /** Builds this process served live: pages of them may still ask for their own payloads. */
  readonly #shown = new Set<string>();
  readonly #folderOptions: ConstructorParameters<typeof StaticFolder>[1];
  #reread: (() => Promise<void>) | null = null;
  #rereading: Promise<void> | null = null;
  /** Deletion of pruned entries, under way after `prune` returned. */
  #deleting: Promise<void> = Promise.resolve();

  constructor(buildsDir: string, folderOptions: ConstructorParameters<typeof StaticFolder>[1] = {}) {
    this.buildsDir = path.resolve(buildsDir);
    this.#folderOptions = folderOptions;
  }

  /** The live build's folder. */
  current(): StaticFolder | null {
    return this.#folder;
  }

  get currentId(): string | null {
    return this.#id;
  }

  /**
   * Serves build `id` from now on, unless a later switch (a higher `version`) was already heard: the
   * switching instance and the database's notification may tell in either order.
   */
  show(id: string, version: number): boolean {
    if (version < this.#version) return false;
    this.#version = version;
    this.#shown.add(id);
    if (id !== this.#id) {
      this.#id = id;
      this.#folder = this.#kept.get(id) ?? new StaticFolder(path.join(this.buildsDir, id), this.#folderOptions);
      // Each folder keeps up to STATIC_MEMORY_CACHE_MB of its files: only the live one keeps its copies,
      // others are opened afresh when a payload or a preview asks.
      this.#kept.clear();
      this.#kept.set(id, this.#folder);
    }
    return true;
  }

  /** Serves what `current` points at (start-up without a live build in the database). */
  async showLinked(): Promise<void> {
    try {
      this.show(path.basename(await readlink(path.join(this.buildsDir, CURRENT))), 0);
    } catch {
      // No build yet.
    }
  }

  /** Whether build `id` is on disk and complete (its `builds/latest.json` is written last). */
  async has(id: string): Promise<boolean> {
    if (!BUILD_ID.test(id)) return false;
    try {
      return (await stat(path.join(this.buildsDir, id, 'builds', 'latest.json'))).isFile();
    } catch {
      return false;
    }
  }

  /** A kept build's folder, to answer a payload or a preview from it; null when it is not on disk. */
  async folder(id: string): Promise<StaticFolder | null> {
    const open = this.#kept.get(id);
    if (open) return open;
    if (!(await this.has(id))) return null;
    const folder = new StaticFolder(path.join(this.buildsDir, id), this.#folderOptions);
    this.#kept.set(id, folder);
    return folder;
  }

  /**
   * The folder of a build this process served live and still keeps: a page of it answers its payloads
   * from it after a switch, so it never shows one build's page with another's data. A build that never
   * went live is only for previews (its data may not be public yet): null.
   */
  async servedFolder(id: string): Promise<StaticFolder | null> {
    if (!this.#shown.has(id) && this.#reread && (await this.has(id))) {
      // Another instance may have switched to it a moment ago and its page asks here first.
      this.#rereading ??= this.#reread().finally(() => (this.#rereading = null));
      await this.#rereading;
    }
    return this.#shown.has(id) ? this.folder(id) : null;
  }

  /** How to read the live build from the database, when a page names a kept build this process has not served. */
  followDatabase(reread: () => Promise<void>): void {
    this.#reread = reread;
  }

  /** Points `current` at build `id` (atomically: a fresh symlink renamed over it) and serves it. */
  async switchTo(id: string, version = Math.max(this.#version, 0) + 1): Promise<void> {
    await mkdir(this.buildsDir, { recursive: true });
    const temporary = path.join(this.buildsDir, `.current-${process.pid}-${Date.now()}`);
    await symlink(id, temporary);
    await rename(temporary, path.join(this.buildsDir, CURRENT));
    this.show(id, version);
  }

  /**
   * Deletes every build folder but `keep` (and the live one), with its record: publishing chose which (ADR 208).
   * A build reuses only the live build's files, which this never deletes (ADR 211). The entries are gone
   * from `buildsDir` when this returns; their files are deleted afterwards (`deleted`), as are those of a
   * prune a stopped process left half done.
   */
  async prune(keep: ReadonlySet<string>): Promise<void> {
    const doomed: string[] = [];
    const spares: string[] = [];
    const entries: string[] = [];
    for (const name of await readdir(this.buildsDir)) {
      if (name.startsWith(PRUNED_PREFIX)) doomed.push(name);
      if (name.startsWith(SPARE_PREFIX)) spares.push(name);
      if (name === CURRENT || name.startsWith('.')) continue;
      const build = buildOfEntry(name);
      if (keep.has(build) || build === this.#id) continue;
      this.#kept.delete(name);
      this.#shown.delete(name);
      entries.push(name);
    }
    // Renamed from its own name straight to the spare's: a `.pruned-` entry may be deleted by another prune.
    const spare = await this.#newSpare(entries);
    const retired = spare ? [...entries.filter((entry) => `${SPARE_PREFIX}${entry}` !== spare), ...spares] : entries;
    for (const name of retired) {
      // A record is one file, gone at once: a process of its own is for the folders' thousands.
      if (buildOfEntry(name) !== name) {
        await rm(path.join(this.buildsDir, name), { force: true });
        continue;
      }
      const pruned = `${PRUNED_PREFIX}${randomBytes(6).toString('hex')}-${name.replace(/^\./, '')}`;
      // Gone already: another prune (of this process or another instance's) or a build took it first.
      if (await renamed(path.join(this.buildsDir, name), path.join(this.buildsDir, pruned))) doomed.push(pruned);
    }
    if (doomed.length === 0) return;
    const deletion = this.#deleting.then(() =>
      deleteInBackground(doomed.map((name) => path.join(this.buildsDir, name))),
    );
    // A deletion that fails (another instance deleting the same leftover) is tried again at the next prune.
    this.#deleting = deletion.then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * Keeps the newest whole build (its manifest is written last) of the entries being pruned as the spare, in
   * place of the one kept before (docs/decisions/220-recycled-build-folders.md); answers its entry's new name.
   */
  async #newSpare(entries: readonly string[]): Promise<string | null> {
    for (const name of entries
      .filter((entry) => buildOfEntry(entry) === entry)
      .sort()
      .reverse()) {
      if (!(await stat(path.join(this.buildsDir, name, MANIFEST_FILE)).catch(() => null))) continue;
      const spare = `${SPARE_PREFIX}${name}`;
      if (await renamed(path.join(this.buildsDir, name), path.join(this.buildsDir, spare))) return spare;
    }
    return null;
  }

  /** The spare's folder, or null when there is none (docs/decisions/220-recycled-build-folders.md). */
  async spare(): Promise<string | null> {
    const spares = (await readdir(this.buildsDir)).filter((name) => name.startsWith(SPARE_PREFIX)).sort();
    return spares.length > 0 ? path.join(this.buildsDir, spares.at(-1)!) : null;
  }

  /**
   * Moves the spare `folder` to build `id`'s, which must not exist yet, for that build to recycle; false when
   * another build or prune took it first. Read its manifest first: it is gone once taken.
   */
  async takeSpare(folder: string, id: string): Promise<boolean> {
    const ours = path.dirname(folder) === this.buildsDir && path.basename(folder).startsWith(SPARE_PREFIX);
    if (!BUILD_ID.test(id) || !ours) return false;
    // Before it bears a build's name: a folder without them is neither a whole build nor a spare again, if
    // this process stops while the build patches it.
    await rm(path.join(folder, 'builds', 'latest.json'), { force: true });
    await rm(path.join(folder, MANIFEST_FILE), { force: true });
    return renamed(folder, path.join(this.buildsDir, id));
  }

  /** Resolves once the files of every prune so far are deleted (or left for the next prune to retry). */
  deleted(): Promise<void> {
    return this.#deleting;
  }
}

/** Renames `from` to `to`; false when `from` is gone (another prune or build took it first). */
function renamed(from: string, to: string): Promise<boolean> {
  return rename(from, to).then(
    () => true,
    (error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    },
  );
}

/**
 * Deletes `folders` in a process of its own at the lowest CPU priority. On a thread of this process,
 * `rmSync` of a pruned build's 40,000 files took 3 s of a core while the next publish listed its catalog
 * and linked its pages, and slowed shoppers' answers the same way; `fs.promises.rm` filled libuv's thread
 * pool, so every read of the next build waited behind it (docs/performance.md).
 */
function deleteInBackground(folders: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '-e',
        `for (const f of process.argv.slice(1)) require('node:fs').rmSync(f, { recursive: true, force: true })`,
        ...folders,
      ],
      { stdio: 'ignore' },
    );
    child.once('spawn', () => {
      try {
        setPriority(child.pid!, constants.priority.PRIORITY_LOW);
      } catch {
        // Not allowed here (some containers): it still deletes, at the usual priority.
      }
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`Deleting pruned builds stopped (${code})`)),
    );
  });
}
