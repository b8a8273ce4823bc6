/**
 * Which pages of the live build the next one reuses (docs/decisions/211-incremental-builds.md): those
 * whose recorded API answers all hash the same now. Each answer is asked for once per build, through
 * the snapshot's memo, so a store's product answers cost a few list calls.
 */
import path from 'node:path';
import type { BuildRecord } from './build-record.ts';
import { inputsHash } from './page-inputs.ts';
import type { PageReuse } from './snapshot.ts';

/**
 * Reuse of the live build's unchanged pages. `answer` gives the hash of a path's answer now (asking the
 * API when this build has not read it yet).
 */
export function liveBuildReuse(from: string, record: BuildRecord, answer: (key: string) => Promise<string>): PageReuse {
  const asked = new Map<string, Promise<string>>();
  const hashNow = (key: string) => {
    let hash = asked.get(key);
    if (!hash) asked.set(key, (hash = answer(key)));
    return hash;
  };
  return {
    from,
    folders: () =>
      [
        ...new Set(Object.values(record.pages).flatMap((entry) => entry.files.map((name) => path.dirname(name)))),
      ].filter((folder) => folder !== '.'),
    async unchanged(page) {
      const entry = record.pages[page];
      if (!entry?.inputs) return null;
      const reads = entry.reads.map((index) => record.keys[index]!);
      const now = new Map<string, string>();
      for (const key of reads) now.set(key, await hashNow(key));
      return inputsHash(reads, (key) => now.get(key)) === entry.inputs ? { entry, reads } : null;
    },
  };
}
