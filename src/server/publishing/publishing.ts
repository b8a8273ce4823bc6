/**
 * Publishing's one implementation (docs/decisions/202-publishing-builds.md, 208-preview-and-live-build.md):
 * the console, the HTTP hook and the command line start a build here; it is recorded in `builds`, rendered
 * by the storefront process's publisher to `ready`, and goes live (now, or later from the console) only
 * when every page rendered. The live build is the `live_build` row; a switch notifies every instance.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { BuildChanges, BuildProgress } from '../../lib/contract/answers.ts';
import type { BuildsTable, Database } from '../db/schema.ts';
import type { Clock, Logger } from '../http/context.ts';
import { conflict, notFound } from '../http/errors.ts';
import { LIVE_BUILD_CHANNEL, READY_BUILD_CHANNEL } from './live-build.ts';

/** What the storefront process lends publishing: its snapshot of every public store (src/front/start-storefront.ts). */
export type Publisher = {
  /** The bearer token of `POST /api/admin/builds`: REBUILD_TOKEN, or the one kept in the builds folder. */
  token: string;
  /**
   * Renders build `id` beside the live one, re-rendering only the pages a change touches unless `full`
   * (docs/decisions/211-incremental-builds.md); rejects when a page fails to render.
   */
  render(
    id: string,
    onProgress: (done: number, total: number) => void,
    options: { full: boolean },
  ): Promise<{ pages: number; changes: BuildChanges }>;
  /** Whether build `id` is complete on disk (it can go live). */
  has(id: string): Promise<boolean>;
  /** Serves build `id` from now on, atomically, unless a later switch (`version`) was already served. */
  switchTo(id: string, version: number): Promise<void>;
  /**
   * Resolves once every other instance with a builds folder of its own holds build `id`, or after a bound
   * (src/server/publishing/build-holders.ts); left out where no other instance fetches builds.
   */
  awaitHeld?(id: string): Promise<void>;
  /** Deletes every build folder but these. */
  prune(keep: ReadonlySet<string>): Promise<void>;
};
export type BuildRow = Selectable<BuildsTable>;

/** Who asks: an operator's email, 'token' or 'cli', and the store whose console it was asked from. */
export type BuildRequest = { requestedBy: string; storeId: number | null };

/** How a build goes live: right after it rendered (`publish`), or later from the console or the token. */
export type GoLive = { build: BuildRow; previous: string | null; rollback: boolean };

export const GO_LIVE_MESSAGES = {
  alreadyLive: 'This build is already live.',
  notReady: 'Only a build that rendered every page can go live.',
  removed: 'This build is no longer kept, so it cannot go live again.',
} as const;

export type BuildEvent = { kind: 'progress'; progress: BuildProgress } | { kind: 'finished'; build: BuildRow };

type Run = {
  startedAt: number;
  done: number;
  total: number;
  lastSentAt: number;
  listeners: Set<(event: BuildEvent) => void>;
  finished: Promise<BuildRow>;
};

/** Progress events reach listeners at most this often (a build of thousands of pages reports every page). */
const PROGRESS_EVERY_MS = 250;
/** A failure's message is kept whole up to this length: enough for the page and status that failed. */
const ERROR_LENGTH = 1000;
/**
 * Waits between tries to record a build's end (the database may be restarting): about 7 s in all, after
 * which the build is left to the next start (`#failStaleBuilds`; docs/decisions/213-publishing-for-editors-and-shoppers.md).
 */
const RECORD_RETRY_MS = [250, 1000, 2000, 4000] as const;
/** How often the process rendering a build refreshes its `heartbeat_at` (docs/decisions/208-preview-and-live-build.md). */
const BUILD_HEARTBEAT_MS = 10_000;
/**
 * A `building` row whose heartbeat is older than this is taken for one whose process stopped: six missed
 * heartbeats, so a busy event loop or a slow database is not mistaken for a process gone.
 */
export const BUILD_ABANDONED_AFTER_MS = 60_000;
/**
 * The last resort for a process that still heartbeats but whose build never ends (a render that hangs):
 * a whole site of 5,000 pages renders in seconds, so an hour is generous.
 */
export const BUILD_TIME_LIMIT_MS = 60 * 60 * 1000;
/** How often `publish` looks whether a build running in another process has ended. */
const WAIT_FOR_OTHER_BUILD_MS = 1000;
export const ABANDONED_MESSAGES = {
  stopped: 'The process stopped before the build finished.',
  unrecorded: 'The build’s end could not be recorded (the database was unreachable).',
  tooLong: 'The build did not finish within an hour and was given up.',
} as const;

/** Sortable, unique build id: time in base 36 plus randomness. */
export function newBuildId(now = Date.now()): string {
  return `${now.toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** Whether `name` has the shape of a `newBuildId` (what may be deleted as a build where other things live too). */
export function isBuildId(name: string): boolean {
  return /^[0-9a-z]{1,12}-[0-9a-f]{6}$/.test(name);
}

/** The first line of a failure's message, never its stack. */
function failureMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').slice(0, ERROR_LENGTH) || 'The build failed.';
}

/**
 * Marks builds left `building` by a process that stopped mid-build as failed: those whose heartbeat is
 * older than BUILD_ABANDONED_AFTER_MS. A build another instance renders right now keeps beating and is
 * left alone (instances share one database; ADR 208). A row from before migration 0027 has no heartbeat
 * and is judged by its start, as if it had beaten once then: builds take seconds, so one older than a
 * minute is one a stopped process left, and one rule serves start-up and every start.
 */
export async function failAbandonedBuilds(db: Kysely<Database>, now: Date): Promise<number> {
  const rows = await db
    .updateTable('builds')
    .set({ status: 'failed', finished_at: now, error: ABANDONED_MESSAGES.stopped })
    .where('status', '=', 'building')
    .where((eb) =>
      eb(eb.fn.coalesce('heartbeat_at', 'started_at'), '<', new Date(now.getTime() - BUILD_ABANDONED_AFTER_MS)),
    )
    .returning('id')
    .execute();
  return rows.length;
}

/**
 * Builds whose folders are kept (not pruned by the instance that switched): what an instance with a
 * BUILDS_DIR of its own keeps too (docs/decisions/212-builds-as-static-artifacts.md).
 */
export async function keptBuildIds(db: Kysely<Database>): Promise<Set<string>> {
  const rows = await db.selectFrom('builds').select('id').where('removed_at', 'is', null).execute();
  return new Set(rows.map((row) => row.id));
}

export type PublishingParts = {
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
  publisher: Publisher;
  /** BUILDS_KEPT: builds kept on disk to preview and roll back to. */
  kept: number;
  /** BUILD_HEARTBEAT_MS unless given (tests beat faster rather than wait). */
  heartbeatMs?: number;
};

/** Statuses of a build that rendered every page: it has a folder until it is pruned. */
const RENDERED = ['ready', 'live', 'rolled_back'] as const;

/** Starts builds, one at a time, and tells listeners how the running one goes. */
export class Publishing {
  readonly #parts: PublishingParts;
  readonly #runs = new Map<string, Run>();
  /** Builds of this process whose end could not be recorded: the next start records them as failed. */
  readonly #unrecorded = new Set<string>();
  /** Switches of this process, one after the other (the database orders those of all instances). */
  #switching: Promise<unknown> = Promise.resolve();

  constructor(parts: PublishingParts) {
    this.#parts = parts;
  }

  get token(): string {
    return this.#parts.publisher.token;
  }

  /**
   * Records a new build and starts rendering it in the background; answers its id, or the id of the
   * build already running (the unique index on `building` rows holds across instances).
   */
  async start(
    request: BuildRequest,
    alsoRecord?: (trx: Transaction<Database>, id: string) => Promise<void>,
    options: { goLive: boolean; full?: boolean } = { goLive: true },
  ): Promise<{ started: true; id: string } | { started: false; running: string }> {
    const { db, clock } = this.#parts;
    await this.#failStaleBuilds();
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = clock.now();
      const id = newBuildId(now.getTime());
      // The record and whatever the caller records with it (the audit entry) are one transaction.
      const inserted = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('builds')
          .values({
            id,
            status: 'building',
            requested_by: request.requestedBy,
            store_id: request.storeId,
            started_at: now,
            heartbeat_at: now,
          })
          .onConflict((oc) => oc.doNothing())
          .returning('id')
          .executeTakeFirst();
        if (row) await alsoRecord?.(trx, id);
        return Boolean(row);
      });
      if (inserted) {
        this.#run(id, now.getTime(), options.goLive, options.full ?? false);
        return { started: true, id };
      }
      const running = await db.selectFrom('builds').select('id').where('status', '=', 'building').executeTakeFirst();
      if (running) return { started: false, running: running.id };
      // The running build finished between the two statements: try again.
    }
    throw new Error('A build could not be recorded');
  }

  /**
   * A `building` row left behind would block every later build (the unique index): one of this process
   * whose end could not be recorded, one whose heartbeat stopped (its process is gone), or one that beats
   * but started more than BUILD_TIME_LIMIT_MS ago (its render hangs) is failed.
   */
  async #failStaleBuilds(): Promise<void> {
    const { db, clock } = this.#parts;
    const now = clock.now();
    const unrecorded = [...this.#unrecorded];
    if (unrecorded.length > 0) {
      await db
        .updateTable('builds')
        .set({ status: 'failed', finished_at: now, error: ABANDONED_MESSAGES.unrecorded })
        .where('status', '=', 'building')
        .where('id', 'in', unrecorded)
        .execute();
      for (const id of unrecorded) this.#unrecorded.delete(id);
    }
    await failAbandonedBuilds(db, now);
    await db
      .updateTable('builds')
      .set({ status: 'failed', finished_at: now, error: ABANDONED_MESSAGES.tooLong })
      .where('status', '=', 'building')
      .where('started_at', '<', new Date(now.getTime() - BUILD_TIME_LIMIT_MS))
      .execute();
  }

  /**
   * Starts a build and waits for its end (the command line and start-up); a failed build rejects. A build
   * already running (another instance's start-up, or one whose process stopped a moment ago and whose
   * heartbeat has not yet aged) is waited for first: this build then renders what changed since.
   */
  async publish(
    request: BuildRequest,
    onProgress?: (progress: BuildProgress) => void,
    options: { full: boolean } = { full: false },
  ): Promise<BuildRow & { status: 'live' }> {
    let start = await this.start(request, undefined, { goLive: true, full: options.full });
    while (!start.started) {
      this.#parts.logger.info({ build: start.running }, 'waiting for the running build to end');
      await this.#ended(start.running);
      start = await this.start(request, undefined, { goLive: true, full: options.full });
    }
    const stop = onProgress
      ? this.subscribe(start.id, (event) => event.kind === 'progress' && onProgress(event.progress))
      : null;
    const build = await this.finished(start.id)!.finally(() => stop?.());
    if (build.status !== 'live') throw new Error(`Build ${build.id} failed: ${build.error ?? 'unknown error'}`);
    return { ...build, status: 'live' };
  }

  /** Resolves when build `id` is no longer `building`, or when the next start would fail it as stale. */
  async #ended(id: string): Promise<void> {
    const here = this.finished(id);
    if (here) {
      await here.catch(() => undefined);
      return;
    }
    const { db, clock } = this.#parts;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, WAIT_FOR_OTHER_BUILD_MS));
      const now = clock.now().getTime();
      const running = await db
        .selectFrom('builds')
        .select('id')
        .where('id', '=', id)
        .where('status', '=', 'building')
        .where((eb) => eb(eb.fn.coalesce('heartbeat_at', 'started_at'), '>=', new Date(now - BUILD_ABANDONED_AFTER_MS)))
        .where('started_at', '>=', new Date(now - BUILD_TIME_LIMIT_MS))
        .executeTakeFirst();
      if (!running) return;
    }
  }

  /** Resolves when no build runs in this process (closing waits, so no record is left building). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.#runs.values()].map((run) => run.finished));
  }

  /** The running build's progress, when it runs in this process. */
  progress(id: string): BuildProgress | null {
    const run = this.#runs.get(id);
    return run ? this.#progressOf(run) : null;
  }

  /** The end of a build running in this process (null when it does not run here). */
  finished(id: string): Promise<BuildRow> | null {
    return this.#runs.get(id)?.finished ?? null;
  }

  /** Hears a build running in this process until it ends; answers the unsubscribe, or null when it does not run here. */
  subscribe(id: string, listener: (event: BuildEvent) => void): (() => void) | null {
    const run = this.#runs.get(id);
    if (!run) return null;
    run.listeners.add(listener);
    return () => run.listeners.delete(listener);
  }

  #progressOf(run: Run): BuildProgress {
    const elapsed = Math.max(0, this.#parts.clock.now().getTime() - run.startedAt);
    return {
      done: run.done,
      total: run.total,
      elapsed_ms: elapsed,
      eta_ms: run.done > 0 ? Math.round((elapsed / run.done) * (run.total - run.done)) : null,
    };
  }

  #run(id: string, startedAt: number, goLive: boolean, full: boolean): void {
    const { db, clock, logger, publisher } = this.#parts;
    const listeners = new Set<(event: BuildEvent) => void>();
    const tell = (event: BuildEvent) => {
      for (const listener of listeners) listener(event);
    };
    const run: Run = { startedAt, done: 0, total: 0, lastSentAt: 0, listeners, finished: Promise.resolve(null!) };
    const onProgress = (done: number, total: number) => {
      run.done = done;
      run.total = total;
      const now = clock.now().getTime();
      if (done === total || now - run.lastSentAt >= PROGRESS_EVERY_MS) {
        run.lastSentAt = now;
        tell({ kind: 'progress', progress: this.#progressOf(run) });
      }
    };
    type Outcome = Partial<
      Pick<BuildRow, 'status' | 'pages' | 'error' | 'pages_added' | 'pages_changed' | 'pages_removed'>
    >;
    /**
     * Records the build's end, trying again while the database is unreachable. The end of a render only
     * replaces `building`: a build failed meanwhile by another start (too old) stays failed.
     */
    const finish = async (outcome: Outcome, from: 'building' | 'ready' = 'building'): Promise<BuildRow> => {
      for (let attempt = 0; ; attempt++) {
        try {
          const finishedAt = clock.now();
          const row = await db
            .updateTable('builds')
            .set({ ...outcome, finished_at: finishedAt, duration_ms: Math.max(0, finishedAt.getTime() - startedAt) })
            .where('id', '=', id)
            .where('status', '=', from)
            .returningAll()
            .executeTakeFirst();
          return row ?? (await db.selectFrom('builds').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
        } catch (error) {
          const wait = RECORD_RETRY_MS[attempt];
          if (wait === undefined) {
            this.#unrecorded.add(id);
            throw new Error(`The end of build ${id} could not be recorded`, { cause: error });
          }
          logger.warn({ err: error, build: id }, 'build end not recorded; trying again');
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
    };
    // Tells other instances this build runs (failAbandonedBuilds); one cheap write, only while `building`.
    // A row no longer building (rendered, or failed as too long by another start) needs no more beats.
    const heartbeat = setInterval(() => {
      db.updateTable('builds')
        .set({ heartbeat_at: clock.now() })
        .where('id', '=', id)
        .where('status', '=', 'building')
        .executeTakeFirst()
        .then((result) => result.numUpdatedRows === 0n && clearInterval(heartbeat))
        .catch((error: unknown) => logger.warn({ err: error, build: id }, 'build heartbeat not recorded'));
    }, this.#parts.heartbeatMs ?? BUILD_HEARTBEAT_MS);
    heartbeat.unref();
    run.finished = (async () => {
      let rendered: Awaited<ReturnType<Publisher['render']>>;
      try {
        rendered = await publisher.render(id, onProgress, { full });
      } catch (error) {
        logger.error({ err: error, build: id }, 'build failed');
        return finish({ status: 'failed', pages: null, error: failureMessage(error) });
      }
      // Only a build whose every page rendered is `ready`, and only a ready build goes live (ADR 202).
      const ready = await finish({
        status: 'ready',
        pages: rendered.pages,
        error: null,
        pages_added: rendered.changes.added,
        pages_changed: rendered.changes.changed,
        pages_removed: rendered.changes.removed,
      });
      // Instances with builds folders of their own fetch it now, not when it goes live (ADR 212).
      if (ready.status === 'ready')
        await sql`select pg_notify(${READY_BUILD_CHANNEL}, ${id})`
          .execute(db)
          .catch((error: unknown) => logger.warn({ err: error, build: id }, 'ready build not announced'));
      if (ready.status !== 'ready' || !goLive) {
        if (ready.status === 'ready') await this.#prune();
        return ready;
      }
      try {
        return (await this.goLive(id)).build;
      } catch (error) {
        logger.error({ err: error, build: id }, 'build could not go live');
        return finish(
          { status: 'failed', error: `It rendered but could not go live: ${failureMessage(error)}` },
          'ready',
        );
      }
    })()
      .then((build) => {
        tell({ kind: 'finished', build });
        return build;
      })
      .finally(() => {
        clearInterval(heartbeat);
        this.#runs.delete(id);
      });
    // Whoever awaits `finished` sees a failure to record the outcome; nobody else must crash on it.
    run.finished.catch((error: unknown) => logger.error({ err: error, build: id }, 'build outcome not recorded'));
    this.#runs.set(id, run);
  }

  /**
   * Makes a rendered, kept build the live one, atomically: the `live_build` row and both builds' statuses
   * change in one transaction (with whatever the caller records: the audit entry), every instance is
   * notified on commit, and this process serves it before answering. Going back to a build older than the
   * live one is a rollback: the build switched away from is `rolled_back`, otherwise `ready`.
   */
  goLive(
    id: string,
    alsoRecord?: (trx: Transaction<Database>, change: Omit<GoLive, 'build'>) => Promise<void>,
  ): Promise<GoLive> {
    const switched = this.#switching.then(() => this.#goLive(id, alsoRecord));
    this.#switching = switched.catch(() => undefined);
    return switched;
  }

  async #goLive(
    id: string,
    alsoRecord?: (trx: Transaction<Database>, change: Omit<GoLive, 'build'>) => Promise<void>,
  ): Promise<GoLive> {
    const { db, clock, publisher } = this.#parts;
    // The instances that fetch builds hold it before the switch, so each serves it within a second of it (ADR
    // 212). Only for a build that may go live: for another, the transaction below answers at once.
    if (publisher.awaitHeld) {
      const target = await db
        .selectFrom('builds')
        .select(['status', 'removed_at'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (target && !target.removed_at && (target.status === 'ready' || target.status === 'rolled_back'))
        await publisher.awaitHeld(id);
    }
    const { change, version } = await db.transaction().execute(async (trx) => {
      // The row lock orders switches of every instance.
      const live = await trx.selectFrom('live_build').selectAll().forUpdate().executeTakeFirst();
      const target = await trx.selectFrom('builds').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!target) throw notFound();
      if (target.status === 'live') throw conflict(GO_LIVE_MESSAGES.alreadyLive);
      if (target.status !== 'ready' && target.status !== 'rolled_back') throw conflict(GO_LIVE_MESSAGES.notReady);
      if (target.removed_at || !(await publisher.has(id))) throw conflict(GO_LIVE_MESSAGES.removed);
      const previous = live
        ? await trx.selectFrom('builds').select(['id', 'started_at']).where('id', '=', live.build_id).executeTakeFirst()
        : undefined;
      const rollback = previous !== undefined && new Date(target.started_at) < new Date(previous.started_at);
      if (previous)
        await trx
          .updateTable('builds')
          .set({ status: rollback ? 'rolled_back' : 'ready' })
          .where('id', '=', previous.id)
          .execute();
      const now = clock.now();
      const version = (live?.version ?? 0) + 1;
      const row = { build_id: id, previous_build_id: previous?.id ?? null, version, switched_at: now };
      await trx
        .insertInto('live_build')
        .values(row)
        .onConflict((oc) => oc.column('site').doUpdateSet(row))
        .execute();
      const build = await trx
        .updateTable('builds')
        .set({ status: 'live' })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const change = { build, previous: previous?.id ?? null, rollback };
      await alsoRecord?.(trx, { previous: change.previous, rollback });
      // Delivered to every listening instance when the transaction commits (PostgreSQL; ADR 208).
      await sql`select pg_notify(${LIVE_BUILD_CHANNEL}, ${String(version)})`.execute(trx);
      return { change, version };
    });
    await publisher.switchTo(id, version);
    await this.#prune();
    return change;
  }

  /**
   * Deletes the folders of builds beyond the last BUILDS_KEPT rendered ones, keeping the live one, the one
   * before it (open tabs may still read its payloads) and any being built; their rows are marked removed.
   */
  async #prune(): Promise<void> {
    const { db, clock, publisher, kept } = this.#parts;
    const newest = await db
      .selectFrom('builds')
      .select('id')
      .where('status', 'in', RENDERED)
      .where('removed_at', 'is', null)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(kept)
      .execute();
    const live = await db.selectFrom('live_build').select(['build_id', 'previous_build_id']).executeTakeFirst();
    const building = await db.selectFrom('builds').select('id').where('status', '=', 'building').execute();
    const keep = new Set([
      ...newest.map((row) => row.id),
      ...building.map((row) => row.id),
      ...(live ? [live.build_id, live.previous_build_id ?? ''] : []),
    ]);
    await publisher.prune(keep);
    await db
      .updateTable('builds')
      .set({ removed_at: clock.now() })
      .where('status', 'in', RENDERED)
      .where('removed_at', 'is', null)
      .where('id', 'not in', [...keep, ''])
      .execute();
  }
}
