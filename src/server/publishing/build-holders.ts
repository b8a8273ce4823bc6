/**
 * Which instances hold a build before it goes live (docs/decisions/212-builds-as-static-artifacts.md). An
 * instance with a builds folder of its own serves a build only once it has fetched it whole from the builds
 * bucket; a switch made before that left it serving the old build for as long as the fetch took. So going
 * live asks every such instance to hold the build, and switches once each has said it does: every instance
 * then serves the new build within a second of the switch, by a pointer move.
 *
 * Instances are found without a table of their own: each fetching instance names its listening connection
 * `storefront-fetching:{instance}` (PostgreSQL's `application_name`), so one that stopped is no longer waited
 * for, and one that started meanwhile is.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../http/context.ts';
import { READY_BUILD_CHANNEL } from './live-build.ts';

/** The `application_name` of a fetching instance's listening connection, before its id. */
export const FETCHING_INSTANCE = 'storefront-fetching:';
/** How often the instances connected are read again while waiting (an answer wakes the wait at once). */
const POLL_MS = 250;

/** What `build_held` (live-build.ts `HELD_BUILD_CHANNEL`) carries: who holds which build. */
export const heldPayload = (instance: string, id: string) => `${instance} ${id}`;

export type BuildHoldersOptions = {
  /** This instance: it rendered the build or fetches it before switching, so it is not waited for. */
  self: string;
  /** The fetching instances connected now. */
  instances(): Promise<string[]>;
  /** Asks every fetching instance to hold build `id` and say so. */
  ask(id: string): Promise<void>;
  /** How long a switch waits for the slowest instance before it goes ahead without it. */
  waitMs: number;
  logger: Logger;
};

export class BuildHolders {
  readonly #options: BuildHoldersOptions;
  /** The builds a switch waits for, with the instances that said they hold each. */
  readonly #awaited = new Map<string, Set<string>>();
  readonly #wake = new Set<() => void>();

  constructor(options: BuildHoldersOptions) {
    this.#options = options;
  }

  /** An instance's `build_held` notification. */
  heard(payload: string): void {
    const [instance, id] = payload.split(' ');
    if (!instance || !id) return;
    this.#awaited.get(id)?.add(instance);
    for (const wake of this.#wake) wake();
  }

  /**
   * Resolves once every other fetching instance holds build `id`, or after `waitMs`: then the instances
   * still fetching serve the old build until their fetch ends (never a mix of two), and the log names them.
   */
  async awaitAll(id: string): Promise<void> {
    const { self, waitMs, logger } = this.#options;
    const held = new Set<string>();
    this.#awaited.set(id, held);
    const started = performance.now();
    try {
      await this.#options.ask(id);
      for (;;) {
        const missing = (await this.#options.instances()).filter(
          (instance) => instance !== self && !held.has(instance),
        );
        if (missing.length === 0) return;
        const left = waitMs - (performance.now() - started);
        if (left <= 0) {
          logger.warn(
            { build: id, instances: missing },
            'going live before every instance holds the build: those serve the old one until their fetch ends',
          );
          return;
        }
        await this.#answerOr(Math.min(POLL_MS, left));
      }
    } catch (error) {
      // The wait only spares the other instances a fetch after the switch: a database that cannot be asked
      // now must not keep the build from going live.
      logger.warn({ err: error, build: id }, 'could not ask the other instances to hold the build; going live now');
    } finally {
      this.#awaited.delete(id);
    }
  }

  #answerOr(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#wake.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#wake.add(wake);
    });
  }
}

/** The holders of builds among instances on one PostgreSQL database. */
export function databaseBuildHolders(
  db: Kysely<Database>,
  options: Pick<BuildHoldersOptions, 'self' | 'waitMs' | 'logger'>,
): BuildHolders {
  return new BuildHolders({
    ...options,
    async instances() {
      const { rows } = await sql<{ name: string }>`
        select application_name as name from pg_stat_activity
        where application_name like ${`${FETCHING_INSTANCE}%`}`.execute(db);
      return rows.map((row) => row.name.slice(FETCHING_INSTANCE.length));
    },
    // The ready announcement again: an instance fetches the build if it has not got it, then says it holds it.
    async ask(id) {
      await sql`select pg_notify(${READY_BUILD_CHANNEL}, ${id})`.execute(db);
    },
  });
}
