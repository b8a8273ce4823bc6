/**
 * Publishing's API under /api/admin (docs/decisions/202-publishing-builds.md, 208-preview-and-live-build.md):
 * a build asked for with the bearer token or from a store's console (live at once, or `ready` to preview),
 * its record, its progress as Server-Sent Events, a store's history, and a kept build made live again.
 * The console's gate (../console/routes.ts) has already checked the token or the session.
 */
import { Hono, type Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { AutoPublish, Build, BuildStarted } from '../../lib/contract/answers.ts';
import { autoPublishPayload, startBuildPayload } from '../../lib/contract/payloads.ts';
import type { AppDeps } from '../http/context.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { readJson } from '../http/validation.ts';
import { recordAudit } from '../console/audit.ts';
import type { ConsoleEnv } from '../console/routes.ts';
import type { BuildEvent, BuildRequest, BuildRow, Publishing } from './publishing.ts';

export const PUBLISHING_MESSAGES = {
  unavailable:
    'Publishing runs in the storefront process (npm start); this API runs alone (npm run start:api) and cannot build pages.',
  tokenRequired: 'A valid build token is required.',
  running: 'A build is already running. Follow it, or publish again when it has finished.',
} as const;

/** The paths the bearer token opens, besides a session (the gate reads this). */
export const TOKEN_PATHS = /^\/builds(\/[^/]+(\/events|\/live)?)?$/;
const HISTORY_LENGTH = 20;
/** How often a stream following a build that runs in another process reads its record. */
const POLL_MS = 1000;

export const tokenRequired = () =>
  new HttpError(401, { message: PUBLISHING_MESSAGES.tokenRequired }, { 'www-authenticate': 'Bearer' });

const statusUrl = (id: string) => `/api/admin/builds/${encodeURIComponent(id)}`;

type BuildWithStore = BuildRow & { store: string | null };

const buildAnswer = (row: BuildWithStore): Build => ({
  id: row.id,
  status: row.status,
  requested_by: row.requested_by,
  store: row.store,
  started_at: row.started_at.toISOString(),
  finished_at: row.finished_at?.toISOString() ?? null,
  pages: row.pages,
  duration_ms: row.duration_ms,
  error: row.error,
  changes:
    row.pages_added === null || row.pages_changed === null || row.pages_removed === null
      ? null
      : { added: row.pages_added, changed: row.pages_changed, removed: row.pages_removed },
  kept: (row.status === 'ready' || row.status === 'live' || row.status === 'rolled_back') && row.removed_at === null,
});

export function publishingRoutes(deps: AppDeps) {
  const { db, clock } = deps;
  const app = new Hono<ConsoleEnv>();

  const publishingOf = (): Publishing => {
    if (!deps.publishing) throw new HttpError(503, { message: PUBLISHING_MESSAGES.unavailable });
    return deps.publishing;
  };
  const builds = () =>
    db.selectFrom('builds as b').leftJoin('stores as s', 's.id', 'b.store_id').selectAll('b').select('s.slug as store');

  /**
   * A build the caller may read: any with the token; with a session, those asked from the operator's own
   * stores or by the token and command line (another store's would name its operator). Else 404.
   */
  async function readableBuild(c: Context<ConsoleEnv>, id: string): Promise<BuildWithStore> {
    let query = builds().where('b.id', '=', id);
    if (!c.var.viaToken) {
      const operatorId = c.var.session.operatorId;
      query = query.where((eb) =>
        eb.or([
          eb('b.store_id', 'is', null),
          eb(
            'b.store_id',
            'in',
            eb.selectFrom('store_operators').select('store_id').where('operator_id', '=', operatorId),
          ),
        ]),
      );
    }
    const row = await query.executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }

  async function startBuild(
    c: Context<ConsoleEnv>,
    request: BuildRequest,
    audit?: Parameters<Publishing['start']>[1],
  ): Promise<Response> {
    const { go_live: goLive, full } = await readJson(c, startBuildPayload, { emptyAs: {} });
    const outcome = await publishingOf().start(request, audit, { goLive, full });
    if (!outcome.started)
      throw new HttpError(409, {
        message: PUBLISHING_MESSAGES.running,
        build: { id: outcome.running, status_url: statusUrl(outcome.running) },
      });
    const answer: BuildStarted = { id: outcome.id, status: 'building', status_url: statusUrl(outcome.id) };
    c.header('Location', answer.status_url);
    return c.json({ data: answer }, 202);
  }

  // The routes of this sub-app only: it is mounted at the console's root.
  const available = async (_c: Context<ConsoleEnv>, next: () => Promise<void>) => {
    publishingOf();
    await next();
  };
  app.use('/builds', available);
  app.use('/builds/*', available);
  app.use('/stores/:slug/builds', available);
  app.use('/stores/:slug/builds/*', available);

  app.post('/builds', async (c) => {
    if (!c.var.viaToken) throw tokenRequired();
    return startBuild(c, { requestedBy: 'token', storeId: null });
  });

  app.post('/stores/:slug/builds', async (c) => {
    const store = c.var.consoleStore;
    const { session } = c.var;
    return startBuild(c, { requestedBy: session.email, storeId: store.id }, (trx, id) =>
      recordAudit(trx, {
        storeId: store.id,
        operatorId: session.operatorId,
        actor: session.email,
        action: 'build.start',
        entity: 'build',
        entityId: id,
        before: null,
        after: { status: 'building' },
        at: clock.now(),
      }),
    );
  });

  app.get('/stores/:slug/builds', async (c) => {
    const storeId = c.var.consoleStore.id;
    const rows = await builds()
      .where((eb) => eb.or([eb('b.store_id', 'is', null), eb('b.store_id', '=', storeId)]))
      .orderBy('b.started_at', 'desc')
      .orderBy('b.id', 'desc')
      .limit(HISTORY_LENGTH)
      .execute();
    return c.json({ data: rows.map(buildAnswer) });
  });

  // Auto-publish (ADR 208): owners and editors, who may publish anyway, choose whether catalog changes do.
  const autoPublishOf = (row: { auto_publish: boolean; auto_publish_quiet_seconds: number }): AutoPublish => ({
    enabled: row.auto_publish,
    quiet_seconds: row.auto_publish_quiet_seconds,
  });

  app.get('/stores/:slug/auto_publish', (c) => c.json({ data: autoPublishOf(c.var.consoleStore) }));

  app.put('/stores/:slug/auto_publish', async (c) => {
    const store = c.var.consoleStore;
    const { session } = c.var;
    const wanted = await readJson(c, autoPublishPayload);
    const answer = await db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('stores')
        .select(['auto_publish', 'auto_publish_quiet_seconds'])
        .where('id', '=', store.id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const after = await trx
        .updateTable('stores')
        // Turning it off forgets a publish that was waiting for quiet.
        .set({
          auto_publish: wanted.enabled,
          auto_publish_quiet_seconds: wanted.quiet_seconds,
          ...(wanted.enabled ? {} : { auto_publish_due_at: null }),
        })
        .where('id', '=', store.id)
        .returning(['auto_publish', 'auto_publish_quiet_seconds'])
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        storeId: store.id,
        operatorId: session.operatorId,
        actor: session.email,
        action: 'store.auto_publish',
        entity: 'store',
        entityId: String(store.id),
        before: autoPublishOf(before),
        after: autoPublishOf(after),
        at: clock.now(),
      });
      return autoPublishOf(after);
    });
    return c.json({ data: answer });
  });

  /** A store's build: one its history lists (asked from this store, or by the token or command line). */
  const storeBuild = (storeId: number, id: string) =>
    builds()
      .where('b.id', '=', id)
      .where((eb) => eb.or([eb('b.store_id', 'is', null), eb('b.store_id', '=', storeId)]))
      .executeTakeFirst();

  app.get('/stores/:slug/builds/:id', async (c) => {
    const row = await storeBuild(c.var.consoleStore.id, c.req.param('id'));
    if (!row) throw notFound();
    return c.json({ data: buildAnswer(row) });
  });

  /** Makes a kept build live; `audit` records it in the same transaction. */
  async function goLive(c: Context<ConsoleEnv>, id: string, audit?: Parameters<Publishing['goLive']>[1]) {
    const { build } = await publishingOf().goLive(id, audit);
    const row = await builds().where('b.id', '=', build.id).executeTakeFirstOrThrow();
    return c.json({ data: buildAnswer(row) });
  }

  app.post('/builds/:id/live', async (c) => {
    if (!c.var.viaToken) throw tokenRequired();
    return goLive(c, c.req.param('id'));
  });

  app.post('/stores/:slug/builds/:id/live', async (c) => {
    const store = c.var.consoleStore;
    const { session } = c.var;
    const id = c.req.param('id');
    if (!(await storeBuild(store.id, id))) throw notFound();
    return goLive(c, id, (trx, change) =>
      recordAudit(trx, {
        storeId: store.id,
        operatorId: session.operatorId,
        actor: session.email,
        action: change.rollback ? 'build.rollback' : 'build.go_live',
        entity: 'build',
        entityId: id,
        before: { live: change.previous },
        after: { live: id },
        at: clock.now(),
      }),
    );
  });

  app.get('/builds/:id', async (c) => c.json({ data: buildAnswer(await readableBuild(c, c.req.param('id'))) }));

  app.get('/builds/:id/events', async (c) => {
    const id = c.req.param('id');
    const first = await readableBuild(c, id);
    const publishing = publishingOf();
    return streamSSE(c, async (stream) => {
      // One write at a time, in the order the events came.
      let writing = Promise.resolve();
      const send = (event: BuildEvent) =>
        (writing = writing.then(() =>
          event.kind === 'progress'
            ? stream.writeSSE({ event: 'progress', data: JSON.stringify(event.progress) })
            : writeEnd(stream, event.build),
        ));
      const writeEnd = (s: SSEStreamingApi, row: BuildRow) =>
        s.writeSSE({
          event: row.status === 'failed' ? 'failed' : 'done',
          data: JSON.stringify(buildAnswer({ ...row, store: first.store })),
        });

      // A ready build whose run goes on here is about to go live (waiting for the other instances to hold
      // it, ADR 212): followed to its end, not answered as ready.
      if (first.status !== 'building' && !publishing.finished(id)) return writeEnd(stream, first);
      await new Promise<void>((resolve) => {
        const stop = publishing.subscribe(id, (event) => {
          void send(event);
          if (event.kind === 'finished') void writing.then(resolve);
        });
        stream.onAbort(() => {
          stop?.();
          resolve();
        });
        if (stop) {
          const now = publishing.progress(id);
          if (now) void send({ kind: 'progress', progress: now });
          return;
        }
        // Not running here: it just finished, or another process builds it. Its record tells.
        void follow(stream, id).then((row) => {
          if (row) void send({ kind: 'finished', build: row });
          void writing.then(resolve);
        });
      });
    });
  });

  /** Reads a build's record until it is no longer building (null when the stream closed first). */
  async function follow(stream: SSEStreamingApi, id: string): Promise<BuildRow | null> {
    for (;;) {
      const row = await db.selectFrom('builds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      if (row.status !== 'building') return row;
      if (stream.aborted) return null;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  return app;
}
