/**
 * What each snapshot page was made from (docs/decisions/211-incremental-builds.md): the API answers its
 * render and its payload loader read, by request path, with a hash of each answer. A prerendered page is a
 * function of the code, the site's settings and those answers, so a page whose answers are all the same
 * as when the live build rendered it has the same bytes, and the next build links it instead of
 * rendering it again.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';

/** The hash of one API answer: its status and its body. */
export function answerHash(status: number, body: Uint8Array): string {
  return createHash('sha256').update(String(status)).update('\0').update(body).digest('base64url').slice(0, 22);
}

/** One hash over a page's inputs: each read path with the hash of its answer, in path order. */
export function inputsHash(reads: Iterable<string>, hashOf: (key: string) => string | undefined): string | null {
  const hash = createHash('sha256');
  for (const key of [...reads].sort()) {
    const answer = hashOf(key);
    if (answer === undefined) return null;
    hash.update(key).update('\0').update(answer).update('\0');
  }
  return hash.digest('base64url').slice(0, 22);
}

/**
 * Collects the reads of every page of one build. The memo of API reads (snapshot-api-memo.ts) reports
 * each anonymous GET it sees, with the page it was made for: a snapshot render's (its request) or a
 * payload loader's (`during`). An answer that differs between two reads of one build (a read the memo
 * does not keep, while the catalog changes) makes its pages never reused.
 */
export class PageInputs {
  readonly #page = new AsyncLocalStorage<string>();
  readonly #reads = new Map<string, Set<string>>();
  readonly #answers = new Map<string, string>();
  /** The headers of the renders' API calls, to read the same answers again in the next build. */
  requestHeaders: [string, string][] | null = null;

  /** Runs `load` with its API reads counted as `page`'s. */
  during<T>(page: string, load: () => T): T {
    return this.#page.run(page, load);
  }

  /** The page a read made outside a render belongs to (a payload loader's), if any. */
  currentPage(): string | null {
    return this.#page.getStore() ?? null;
  }

  /** Notes that `page` (if any) read `key` and got an answer with this hash. */
  read(page: string | null, key: string, hash: string, headers: Headers): void {
    const known = this.#answers.get(key);
    // A second, different answer within one build: no page reading it can be told unchanged later.
    this.#answers.set(key, known === undefined || known === hash ? hash : `changed:${known}:${hash}`);
    if (page === null) return;
    this.requestHeaders ??= [...headers].filter(([name]) => name !== 'content-length');
    let reads = this.#reads.get(page);
    if (!reads) this.#reads.set(page, (reads = new Set()));
    reads.add(key);
  }

  /** The hash of the answer `key` got in this build, if it was read. */
  answer(key: string): string | undefined {
    return this.#answers.get(key);
  }

  /** The paths `page` read; empty when none was seen (then it cannot be reused later). */
  readsOf(page: string): ReadonlySet<string> {
    return this.#reads.get(page) ?? new Set();
  }
}
