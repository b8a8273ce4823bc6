/**
 * Publishing's builds (docs/decisions/202-publishing-builds.md, 208-preview-and-live-build.md): started with
 * the bearer token or from a store's console, recorded, one at a time, followed as Server-Sent Events, never
 * switched to when they fail; built to `ready` for a preview, then live, and rolled back, the last
 * BUILDS_KEPT kept. The API tests have no snapshot: a FakePublisher renders, keeps folders and switches.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { serverEvents } from '../../src/lib/build-progress.ts';
import { createApp } from '../../src/server/app.ts';
import type { KyselyPlugin } from 'kysely';
import { silentLogger } from '../../src/server/http/context.ts';
import {
  ABANDONED_MESSAGES,
  BUILD_ABANDONED_AFTER_MS,
  BUILD_TIME_LIMIT_MS,
  failAbandonedBuilds,
  Publishing,
} from '../../src/server/publishing/publishing.ts';
import { publishDueStores } from '../../src/server/publishing/auto-publish.ts';
import { BUILD_TOKEN, FakePublisher } from './support/fake-publisher.ts';
import { operatorOf, siteOrigin, type Operator } from './support/operator.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
let publisher: FakePublisher;
let owner: Operator;
let editor: Operator;
let vipOwner: Operator;
const bearer = { authorization: `Bearer ${BUILD_TOKEN}` };

beforeAll(async () => {
  publisher = new FakePublisher();
  api = await startTestApp({}, { publisher });
  owner = await operatorOf(api, 'acme', 'owner@acme.test', 'owner');
  editor = await operatorOf(api, 'acme', 'editor@acme.test', 'editor');
  vipOwner = await operatorOf(api, 'vip', 'owner@vip.test', 'owner');
});
afterAll(async () => {
  await api.close();
});

/** Waits for a build of this process to end (at once when it already has). */
async function settled(id: string): Promise<void> {
  await api.deps.publishing!.finished(id)?.catch(() => undefined);
}

const startWithToken = () => api.call('POST', '/admin/builds', { headers: bearer });
const statusOf = async (id: string) =>
  await api.db.selectFrom('builds').select(['status', 'error']).where('id', '=', id).executeTakeFirstOrThrow();
/** Records a `building` row as a process elsewhere would, `ago` ms before now, its last heartbeat `beatAgo` ms before now. */
async function buildingElsewhere(id: string, ago: number, beatAgo: number | null): Promise<void> {
  const now = api.clock.now().getTime();
  await api.db
    .insertInto('builds')
    .values({
      id,
      status: 'building',
      requested_by: 'cli',
      store_id: null,
      started_at: new Date(now - ago),
      heartbeat_at: beatAgo === null ? null : new Date(now - beatAgo),
    })
    .execute();
}

type ReadEvent = { event: string; data: any };

/** Reads a build's event stream: `atLeast(n)` waits for n events, `rest()` for the stream's end. */
async function followEvents(id: string, headers: Record<string, string> = bearer) {
  const response = await fetch(`${api.baseUrl}/admin/builds/${id}/events`, { headers });
  const reader = serverEvents(response.body!);
  const events: ReadEvent[] = [];
  let ended = false;
  async function readOne(): Promise<void> {
    const next = await reader.next();
    if (next.done) ended = true;
    else events.push({ event: next.value.event, data: JSON.parse(next.value.data) });
  }
  return {
    response,
    events,
    async atLeast(count: number) {
      while (events.length < count && !ended) await readOne();
      return events;
    },
    async rest() {
      while (!ended) await readOne();
      return events;
    },
  };
}

describe('starting a build', () => {
  test('the bearer token starts a build, answered at once with where to follow it; the record says who and how it went', async () => {
    const started = await startWithToken();
    expect(started.status).toBe(202);
    const { id } = started.body.data;
    expect(started.body.data).toEqual({ id, status: 'building', status_url: `/api/admin/builds/${id}` });
    expect(started.headers.get('location')).toBe(`/api/admin/builds/${id}`);
    await settled(id);

    const record = await api.call('GET', `/admin/builds/${id}`, { headers: bearer });
    expect(record.status).toBe(200);
    expect(record.body.data).toMatchObject({
      id,
      status: 'live',
      requested_by: 'token',
      store: null,
      pages: 4,
      error: null,
      finished_at: expect.any(String),
    });
    expect(record.body.data.duration_ms).toBeGreaterThanOrEqual(0);
    expect(publisher.live).toBe(id);
  });

  test('without the token, with a wrong one, or with a session instead, nothing starts', async () => {
    const before = await api.db.selectFrom('builds').select('id').execute();
    const none = await api.call('POST', '/admin/builds', { headers: { origin: siteOrigin(api) } });
    expect(none.status).toBe(401);
    const wrong = await api.call('POST', '/admin/builds', { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    expect(wrong.body.message).toBe('A valid build token is required.');
    const session = await owner.call('POST', '/admin/builds');
    expect(session.status).toBe(401);
    expect(await api.db.selectFrom('builds').select('id').execute()).toEqual(before);
    expect(
      (await api.call('GET', '/admin/builds/anything', { headers: { authorization: 'Bearer nope' } })).status,
    ).toBe(401);
  });

  test('an owner and an editor publish from their store’s console; each start is audited; origin and CSRF checks apply', async () => {
    const byOwner = await owner.call('POST', '/admin/stores/acme/builds');
    expect(byOwner.status).toBe(202);
    await settled(byOwner.body.data.id);
    const byEditor = await editor.call('POST', '/admin/stores/acme/builds');
    expect(byEditor.status).toBe(202);
    await settled(byEditor.body.data.id);

    const record = await owner.call('GET', `/admin/builds/${byEditor.body.data.id}`);
    expect(record.body.data).toMatchObject({ status: 'live', requested_by: 'editor@acme.test', store: 'acme' });
    const audit = await owner.call('GET', '/admin/stores/acme/audit');
    expect(audit.body.data.slice(0, 2)).toMatchObject([
      { actor: 'editor@acme.test', action: 'build.start', entity: 'build', entity_id: byEditor.body.data.id },
      { actor: 'owner@acme.test', action: 'build.start', entity: 'build', entity_id: byOwner.body.data.id },
    ]);

    const before = await api.db.selectFrom('builds').select('id').execute();
    expect(
      (await owner.call('POST', '/admin/stores/acme/builds', { headers: { 'x-csrf-token': 'forged' } })).status,
    ).toBe(403);
    expect(
      (await owner.call('POST', '/admin/stores/acme/builds', { headers: { origin: 'https://evil.example' } })).status,
    ).toBe(403);
    expect(await api.db.selectFrom('builds').select('id').execute()).toEqual(before);
  });

  test('while a build runs, another start answers 409 naming it, by token or from the console', async () => {
    const release = publisher.hold();
    const first = await startWithToken();
    expect(first.status).toBe(202);
    const { id } = first.body.data;
    const again = await startWithToken();
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      message: 'A build is already running. Follow it, or publish again when it has finished.',
      build: { id, status_url: `/api/admin/builds/${id}` },
    });
    const fromConsole = await owner.call('POST', '/admin/stores/acme/builds');
    expect(fromConsole.status).toBe(409);
    expect(fromConsole.body.build.id).toBe(id);
    expect((await api.call('GET', `/admin/builds/${id}`, { headers: bearer })).body.data.status).toBe('building');
    release();
    await settled(id);
    const next = await startWithToken();
    expect(next.status).toBe(202);
    await settled(next.body.data.id);
  });
});

describe('a failed build', () => {
  test('is recorded as failed with its message, never its stack, and is not switched to', async () => {
    const liveBefore = publisher.live;
    publisher.failNext = 'Snapshot of /acme/shop failed with 500: boom';
    const started = await startWithToken();
    await settled(started.body.data.id);
    const record = await api.call('GET', `/admin/builds/${started.body.data.id}`, { headers: bearer });
    expect(record.body.data).toMatchObject({
      status: 'failed',
      pages: null,
      error: 'Snapshot of /acme/shop failed with 500: boom',
    });
    expect(publisher.live).toBe(liveBefore);

    const stream = await followEvents(started.body.data.id);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await stream.rest();
    expect(events).toEqual([{ event: 'failed', data: record.body.data }]);
  });

  test('a build left building by a process that stopped is marked failed when a process starts, once its heartbeat is a minute old', async () => {
    await buildingElsewhere('stopped-build', 90_000, BUILD_ABANDONED_AFTER_MS + 1000);
    expect(await failAbandonedBuilds(api.db, api.clock.now())).toBe(1);
    const record = await api.call('GET', '/admin/builds/stopped-build', { headers: bearer });
    expect(record.body.data).toMatchObject({
      status: 'failed',
      error: 'The process stopped before the build finished.',
    });
    // A row from before heartbeats is judged by its start.
    await buildingElsewhere('unbeaten-build', BUILD_ABANDONED_AFTER_MS + 1000, null);
    expect(await failAbandonedBuilds(api.db, api.clock.now())).toBe(1);
    expect(await statusOf('unbeaten-build')).toEqual({ status: 'failed', error: ABANDONED_MESSAGES.stopped });
  });
});

describe('a build whose end cannot be recorded', () => {
  /** The database as a publishing instance sees it: `failures` statements from now on fail as if it were gone. */
  function unreachableDatabase() {
    const state = { failures: 0 };
    const plugin: KyselyPlugin = {
      transformQuery(args) {
        if (state.failures > 0) {
          state.failures--;
          throw new Error('Connection terminated unexpectedly');
        }
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const publishing = new Publishing({
      db: api.db.withPlugin(plugin),
      clock: api.clock,
      logger: silentLogger,
      publisher,
      kept: 10,
    });
    return { state, publishing };
  }

  test('a record that fails while the database restarts is tried again and the build ends as usual', async () => {
    const { state, publishing } = unreachableDatabase();
    const release = publisher.hold();
    const started = await publishing.start({ requestedBy: 'cli', storeId: null }, undefined, { goLive: false });
    expect(started.started).toBe(true);
    const { id } = started as { id: string };
    state.failures = 2;
    release();
    await expect(publishing.finished(id)).resolves.toMatchObject({ id, status: 'ready' });
    expect(await statusOf(id)).toEqual({ status: 'ready', error: null });
  });

  test('a build whose end was never recorded no longer blocks the next build of the process, which records it failed', async () => {
    const { state, publishing } = unreachableDatabase();
    const release = publisher.hold();
    const first = (await publishing.start({ requestedBy: 'cli', storeId: null })) as { id: string };
    state.failures = Number.POSITIVE_INFINITY;
    release();
    await expect(publishing.finished(first.id)).rejects.toThrow(`The end of build ${first.id} could not be recorded`);
    expect((await statusOf(first.id)).status).toBe('building');

    // The database is back: the next build starts, without a restart.
    state.failures = 0;
    const next = await publishing.start({ requestedBy: 'cli', storeId: null });
    expect(next.started).toBe(true);
    expect(await statusOf(first.id)).toEqual({ status: 'failed', error: ABANDONED_MESSAGES.unrecorded });
    await expect(publishing.finished((next as { id: string }).id)).resolves.toMatchObject({ status: 'live' });
  }, 30_000);

  test('a build another process still beats for but started over an hour ago is failed when a build starts; a younger one still blocks', async () => {
    await buildingElsewhere('elsewhere-build', BUILD_TIME_LIMIT_MS - 60_000, 5000);
    const blocked = await startWithToken();
    expect(blocked.status).toBe(409);
    expect(blocked.body.build.id).toBe('elsewhere-build');

    api.clock.offsetMs += 120_000;
    await api.db
      .updateTable('builds')
      .set({ heartbeat_at: api.clock.now() })
      .where('id', '=', 'elsewhere-build')
      .execute();
    const started = await startWithToken();
    expect(started.status).toBe(202);
    await settled(started.body.data.id);
    expect(await statusOf('elsewhere-build')).toEqual({ status: 'failed', error: ABANDONED_MESSAGES.tooLong });
    expect(await statusOf(started.body.data.id)).toMatchObject({ status: 'live' });
  });
});

describe('several instances on one database', () => {
  /** Publishing as another `npm start` instance on the same database runs it, beating every `heartbeatMs`. */
  const anotherInstance = (heartbeatMs?: number) =>
    new Publishing({ db: api.instanceDb(), clock: api.clock, logger: silentLogger, publisher, kept: 10, heartbeatMs });
  const heartbeatOf = async (id: string) =>
    (await api.db.selectFrom('builds').select('heartbeat_at').where('id', '=', id).executeTakeFirstOrThrow())
      .heartbeat_at!;

  test('an instance starting up beside a build another one renders leaves it building; it keeps beating and goes live as usual', async () => {
    const elsewhere = anotherInstance(20);
    const release = publisher.hold();
    const started = await elsewhere.start({ requestedBy: 'cli', storeId: null });
    expect(started.started).toBe(true);
    const { id } = started as { id: string };

    // Minutes pass while it renders: its process keeps the heartbeat fresh.
    api.clock.offsetMs += 5 * 60_000;
    const movedAt = api.clock.now().getTime();
    await vi.waitFor(async () => expect(new Date(await heartbeatOf(id)).getTime()).toBeGreaterThanOrEqual(movedAt));
    expect(await failAbandonedBuilds(api.db, api.clock.now())).toBe(0);
    expect(await statusOf(id)).toEqual({ status: 'building', error: null });
    const beside = await startWithToken();
    expect(beside.status).toBe(409);
    expect(beside.body.build.id).toBe(id);

    release();
    await expect(elsewhere.finished(id)).resolves.toMatchObject({ id, status: 'live' });
    expect(publisher.live).toBe(id);
  });

  test('a build whose process stopped blocks the next one only until its heartbeat is a minute old, not an hour', async () => {
    await buildingElsewhere('gone-build', 5 * 60_000, 1000);
    // It may still be running: neither a start-up nor a start fails it yet.
    expect(await failAbandonedBuilds(api.db, api.clock.now())).toBe(0);
    const blocked = await startWithToken();
    expect(blocked.status).toBe(409);
    expect(blocked.body.build.id).toBe('gone-build');

    api.clock.offsetMs += BUILD_ABANDONED_AFTER_MS;
    const started = await startWithToken();
    expect(started.status).toBe(202);
    await settled(started.body.data.id);
    expect(await statusOf('gone-build')).toEqual({ status: 'failed', error: ABANDONED_MESSAGES.stopped });
    expect(await statusOf(started.body.data.id)).toMatchObject({ status: 'live' });
  });

  test('an instance publishing on start-up while another renders waits for that build, then publishes its own', async () => {
    const elsewhere = anotherInstance();
    const release = publisher.hold();
    const first = (await elsewhere.start({ requestedBy: 'cli', storeId: null })) as { id: string };
    const published = api.deps.publishing!.publish({ requestedBy: 'cli', storeId: null });
    release();
    const own = await published;
    expect(own).toMatchObject({ status: 'live', requested_by: 'cli' });
    expect(own.id).not.toBe(first.id);
    expect(await statusOf(first.id)).toEqual({ status: 'ready', error: null });
    expect(publisher.live).toBe(own.id);
  });
});

describe('following a build', () => {
  test('the event stream sends progress with elapsed time and an estimate, then done with the record', async () => {
    const release = publisher.hold();
    const started = await owner.call('POST', '/admin/stores/acme/builds');
    const { id } = started.body.data;
    const stream = await followEvents(id, { cookie: owner.cookie });
    const [first] = await stream.atLeast(1);
    expect(first).toEqual({
      event: 'progress',
      data: { done: 0, total: 0, elapsed_ms: expect.any(Number), eta_ms: null },
    });
    release();
    const events = await stream.rest();
    const progress = events.filter((e) => e.event === 'progress');
    expect(progress.at(-1)!.data).toMatchObject({ done: 4, total: 4, eta_ms: 0 });
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { id, status: 'live', pages: 4, store: 'acme' } });
  });

  test('an unknown build is 404, for the token and a session alike', async () => {
    expect((await api.call('GET', '/admin/builds/no-such-build', { headers: bearer })).status).toBe(404);
    expect((await owner.call('GET', '/admin/builds/no-such-build/events')).status).toBe(404);
  });
});

describe('preview, go live and rollback', () => {
  /** Builds from acme's console without going live; the build once ready. */
  async function buildPreview(by: Operator = editor): Promise<string> {
    const started = await by.call('POST', '/admin/stores/acme/builds', { body: { go_live: false } });
    expect(started.status).toBe(202);
    await settled(started.body.data.id);
    return started.body.data.id as string;
  }
  const record = async (id: string) => (await api.call('GET', `/admin/builds/${id}`, { headers: bearer })).body.data;
  const liveRow = () => api.db.selectFrom('live_build').selectAll().executeTakeFirstOrThrow();

  test('a build renders only what changed unless asked for a full one; full must be a boolean', async () => {
    const incremental = (await startWithToken()).body.data.id as string;
    await settled(incremental);
    const full = await api.call('POST', '/admin/builds', { headers: bearer, body: { full: true } });
    expect(full.status).toBe(202);
    await settled(full.body.data.id as string);
    expect(publisher.fullRenders.slice(-2)).toEqual([false, true]);
    const wrong = await api.call('POST', '/admin/builds', { headers: bearer, body: { full: 'yes' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ full: ['full must be true or false.'] });
  });

  test('a build asked with go_live false renders to ready with what it changes, and the live build stays', async () => {
    const live = (await startWithToken()).body.data.id as string;
    await settled(live);
    publisher.changes = { added: 3, changed: 5, removed: 1 };
    const id = await buildPreview();
    expect(await record(id)).toMatchObject({
      id,
      status: 'ready',
      pages: 4,
      changes: { added: 3, changed: 5, removed: 1 },
      kept: true,
      requested_by: 'editor@acme.test',
    });
    expect(publisher.live).toBe(live);
    expect((await liveRow()).build_id).toBe(live);
    expect((await owner.call('GET', `/admin/stores/acme/builds/${id}`)).body.data.status).toBe('ready');
    // Not a boolean: refused next to the field, nothing started.
    const wrong = await owner.call('POST', '/admin/stores/acme/builds', { body: { go_live: 'no' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ go_live: ['go_live must be true or false.'] });
    expect((await api.db.selectFrom('builds').select('id').where('status', '=', 'building').execute()).length).toBe(0);
  });

  test('an editor makes a ready build live, audited; the build switched away from is ready again', async () => {
    const before = (await liveRow()).build_id;
    const version = (await liveRow()).version;
    const id = await buildPreview();
    const switched = await editor.call('POST', `/admin/stores/acme/builds/${id}/live`);
    expect(switched.status).toBe(200);
    expect(switched.body.data).toMatchObject({ id, status: 'live', kept: true });
    expect(publisher.live).toBe(id);
    expect(await liveRow()).toMatchObject({ build_id: id, previous_build_id: before, version: version + 1 });
    expect((await record(before)).status).toBe('ready');
    const audit = await owner.call('GET', '/admin/stores/acme/audit');
    expect(audit.body.data[0]).toMatchObject({
      actor: 'editor@acme.test',
      action: 'build.go_live',
      entity: 'build',
      entity_id: id,
      before: { live: before },
      after: { live: id },
    });

    const again = await editor.call('POST', `/admin/stores/acme/builds/${id}/live`);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This build is already live.');
    expect(
      (await editor.call('POST', `/admin/stores/acme/builds/${before}/live`, { headers: { 'x-csrf-token': 'forged' } }))
        .status,
    ).toBe(403);
    expect((await vipOwner.call('POST', `/admin/stores/acme/builds/${before}/live`)).status).toBe(404);
    expect(publisher.live).toBe(id);
  });

  test('rolling back to an older kept build is one action: it is live, the one switched away from is rolled back', async () => {
    const older = (await liveRow()).build_id;
    const newer = await buildPreview();
    expect((await owner.call('POST', `/admin/stores/acme/builds/${newer}/live`)).status).toBe(200);

    const rollback = await owner.call('POST', `/admin/stores/acme/builds/${older}/live`);
    expect(rollback.status).toBe(200);
    expect(rollback.body.data).toMatchObject({ id: older, status: 'live' });
    expect((await record(newer)).status).toBe('rolled_back');
    expect(publisher.live).toBe(older);
    const audit = await owner.call('GET', '/admin/stores/acme/audit');
    expect(audit.body.data[0]).toMatchObject({
      action: 'build.rollback',
      entity_id: older,
      before: { live: newer },
      after: { live: older },
    });
    // One live build at a time, and the rolled-back build can go live again (with the token too).
    expect((await api.db.selectFrom('builds').select('id').where('status', '=', 'live').execute()).length).toBe(1);
    expect(
      (await api.call('POST', `/admin/builds/${newer}/live`, { headers: { origin: siteOrigin(api) } })).status,
    ).toBe(401);
    const forward = await api.call('POST', `/admin/builds/${newer}/live`, { headers: bearer });
    expect(forward.status).toBe(200);
    expect(forward.body.data.status).toBe('live');
    expect((await record(older)).status).toBe('ready');
  });

  test('a failed or running build cannot go live; an unknown one is 404', async () => {
    publisher.failNext = 'Snapshot of /acme failed with 500: boom';
    const failed = await buildPreview();
    const refused = await owner.call('POST', `/admin/stores/acme/builds/${failed}/live`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Only a build that rendered every page can go live.');
    expect((await owner.call('POST', '/admin/stores/acme/builds/no-such-build/live')).status).toBe(404);
    expect((await api.call('POST', '/admin/builds/no-such-build/live', { headers: bearer })).status).toBe(404);
  });

  test('only the last BUILDS_KEPT builds are kept: older ones are deleted on a switch and can no longer go live', async () => {
    const first = await buildPreview();
    const kept = api.config.BUILDS_KEPT;
    for (let i = 0; i < kept; i++) await settled((await startWithToken()).body.data.id);
    expect(publisher.folders.has(first)).toBe(false);
    expect(await record(first)).toMatchObject({ status: 'ready', kept: false });
    const refused = await owner.call('POST', `/admin/stores/acme/builds/${first}/live`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This build is no longer kept, so it cannot go live again.');
    const live = await liveRow();
    // The live build and the one before it are always among the kept folders.
    expect(publisher.folders.has(live.build_id)).toBe(true);
    expect(publisher.folders.has(live.previous_build_id!)).toBe(true);
    expect(publisher.folders.size).toBe(kept);
  });
});

describe('auto-publish', () => {
  const P = '/admin/stores/acme/products';
  /** A catalog write of the console: one unit of stock received for acme's first product. */
  async function catalogWrite(): Promise<void> {
    const product = await api.db
      .selectFrom('products as p')
      .innerJoin('stores as s', 's.id', 'p.store_id')
      .innerJoin('product_variants as v', 'v.product_id', 'p.id')
      .select(['p.id as productId', 'v.id as variantId'])
      .where('s.slug', '=', 'acme')
      .orderBy('p.id')
      .executeTakeFirstOrThrow();
    const adjusted = await editor.call('POST', `${P}/${product.productId}/stock_adjustments`, {
      body: { variant_id: String(product.variantId), change: 1, reason: 'received' },
    });
    expect(adjusted.status).toBe(201);
  }
  const tick = () => publishDueStores(api.db, api.deps.publishing!, api.clock);

  test('is off by default; owners and editors set it, audited; a quiet period outside 5–3600 s is refused by its field', async () => {
    expect((await editor.call('GET', '/admin/stores/acme/auto_publish')).body.data).toEqual({
      enabled: false,
      quiet_seconds: 30,
    });
    const refused = await owner.call('PUT', '/admin/stores/acme/auto_publish', {
      body: { enabled: true, quiet_seconds: 2 },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({
      quiet_seconds: ['The quiet period must be a whole number of seconds from 5 to 3600.'],
    });
    expect((await owner.call('GET', '/admin/stores/acme/auto_publish')).body.data.enabled).toBe(false);
    // Off, a catalog write schedules nothing.
    await catalogWrite();
    api.clock.offsetMs += 60_000;
    expect(await tick()).toBeNull();

    const set = await editor.call('PUT', '/admin/stores/acme/auto_publish', {
      body: { enabled: true, quiet_seconds: 30 },
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ enabled: true, quiet_seconds: 30 });
    const audit = await owner.call('GET', '/admin/stores/acme/audit');
    expect(audit.body.data[0]).toMatchObject({
      actor: 'editor@acme.test',
      action: 'store.auto_publish',
      before: { enabled: false, quiet_seconds: 30 },
      after: { enabled: true, quiet_seconds: 30 },
    });
    expect((await vipOwner.call('PUT', '/admin/stores/acme/auto_publish', { body: set.body.data })).status).toBe(404);
  });

  test('a catalog change publishes once the store has been quiet for its period; another change starts the wait again', async () => {
    await catalogWrite();
    api.clock.offsetMs += 20_000;
    expect(await tick()).toBeNull();
    await catalogWrite();
    api.clock.offsetMs += 20_000;
    // 40 s after the first change, but 20 s after the last one.
    expect(await tick()).toBeNull();
    api.clock.offsetMs += 11_000;
    const id = await tick();
    expect(id).not.toBeNull();
    await settled(id!);
    expect((await api.call('GET', `/admin/builds/${id}`, { headers: bearer })).body.data).toMatchObject({
      status: 'live',
      requested_by: 'auto-publish',
      store: 'acme',
    });
    // Claimed once: nothing is due any more.
    expect(await tick()).toBeNull();
  });

  test('a store due while a build runs is published when it has finished', async () => {
    const release = publisher.hold();
    const running = (await startWithToken()).body.data.id as string;
    await catalogWrite();
    api.clock.offsetMs += 31_000;
    expect(await tick()).toBeNull();
    release();
    await settled(running);
    api.clock.offsetMs += 6_000;
    const id = await tick();
    expect(id).not.toBeNull();
    await settled(id!);
    await owner.call('PUT', '/admin/stores/acme/auto_publish', { body: { enabled: false, quiet_seconds: 30 } });
  });
});

describe('a store’s history', () => {
  test('lists the last 20 builds of this store, the token and the command line, newest first; never another store’s', async () => {
    const fromVip = await vipOwner.call('POST', '/admin/stores/vip/builds');
    expect(fromVip.status).toBe(202);
    const vipId = fromVip.body.data.id;
    await settled(vipId);
    const old = Date.now() - 86_400_000;
    await api.db
      .insertInto('builds')
      .values(
        Array.from({ length: 25 }, (_, i) => ({
          id: `old-${String(i).padStart(2, '0')}`,
          status: 'ready' as const,
          requested_by: 'cli',
          store_id: null,
          started_at: new Date(old + i * 1000),
          finished_at: new Date(old + i * 1000 + 500),
          pages: 10,
          duration_ms: 500,
        })),
      )
      .execute();

    const history = await owner.call('GET', '/admin/stores/acme/builds');
    expect(history.status).toBe(200);
    expect(history.body.data).toHaveLength(20);
    const times = history.body.data.map((b: { started_at: string }) => b.started_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(history.body.data.map((b: { id: string }) => b.id)).not.toContain(vipId);
    expect(history.body.data.every((b: { store: string | null }) => b.store === null || b.store === 'acme')).toBe(true);

    // Another store's console build names its operator: not readable from acme's session, readable with the token.
    expect((await owner.call('GET', `/admin/builds/${vipId}`)).status).toBe(404);
    expect((await owner.call('GET', `/admin/builds/${vipId}/events`)).status).toBe(404);
    expect((await api.call('GET', `/admin/builds/${vipId}`, { headers: bearer })).body.data.store).toBe('vip');
    expect((await vipOwner.call('GET', '/admin/stores/acme/builds')).status).toBe(404);
    expect((await vipOwner.call('POST', '/admin/stores/acme/builds')).status).toBe(404);
  });
});

describe('the API running alone', () => {
  test('answers 503 with a message saying publishing runs in the storefront process', async () => {
    const alone = createApp({ db: api.db, payments: api.payments, config: api.config });
    const byToken = await alone.request('/api/admin/builds', { method: 'POST', headers: bearer });
    expect(byToken.status).toBe(503);
    expect(((await byToken.json()) as { message: string }).message).toMatch(/npm run start:api/);
    const bySession = await alone.request('/api/admin/stores/acme/builds', {
      headers: { cookie: owner.cookie },
    });
    expect(bySession.status).toBe(503);
  });
});
