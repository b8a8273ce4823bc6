/**
 * Publishing's builds (docs/decisions/202-publishing-builds.md): started with the bearer token or from a
 * store's console, recorded, one at a time, followed as Server-Sent Events, never switched to when they fail.
 * The API tests have no snapshot: a FakePublisher renders and switches.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serverEvents } from '../../src/lib/build-progress.ts';
import { createApp } from '../../src/server/app.ts';
import { failAbandonedBuilds } from '../../src/server/publishing/publishing.ts';
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

  test('a build left building by a process that stopped is marked failed when the process starts again', async () => {
    await api.db
      .insertInto('builds')
      .values({ id: 'stopped-build', status: 'building', requested_by: 'cli', store_id: null, started_at: new Date() })
      .execute();
    expect(await failAbandonedBuilds(api.db, new Date())).toBe(1);
    const record = await api.call('GET', '/admin/builds/stopped-build', { headers: bearer });
    expect(record.body.data).toMatchObject({
      status: 'failed',
      error: 'The process stopped before the build finished.',
    });
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
          status: 'live' as const,
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
