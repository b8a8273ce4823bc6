/**
 * The console's access (docs/decisions/197-operator-auth.md): sign-in links, sessions, CSRF, rate
 * limits, roles, staff, the audit log, and every console route refusing another store's operator.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CONSOLE_OPERATIONS } from '../../src/lib/contract/operations.ts';
import { DEMO_OWNER_EMAIL, DEMO_VIP_OWNER_EMAIL, demoOwnerSignInLink } from '../../src/server/console/demo-owner.ts';
import { grantRole } from '../../src/server/console/operators.ts';
import { confirmToken, mailedToken, operatorOf, signIn, siteOrigin, type Operator } from './support/operator.ts';
import { FakePublisher } from './support/fake-publisher.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
let owner: Operator;
const IDLE_MINUTES = 30;

beforeAll(async () => {
  api = await startTestApp(
    {
      ADMIN_SESSION_IDLE_MINUTES: String(IDLE_MINUTES),
      RATE_LIMIT_ADMIN_SIGN_IN_PER_CLIENT: '40',
    },
    // Publishing's routes are walked too; they need a snapshot to stand in for.
    { publisher: new FakePublisher() },
  );
  owner = await operatorOf(api, 'acme', 'owner@acme.test', 'owner');
});
afterAll(async () => {
  await api.close();
});

const mailsTo = async (email: string) =>
  (await api.db.selectFrom('mail_outbox').select('id').where('to_address', '=', email).execute()).length;

/** Runs `fn` with the API clock moved on, then puts it back. */
async function later<T>(minutes: number, fn: () => Promise<T>): Promise<T> {
  api.clock.offsetMs += minutes * 60_000;
  try {
    return await fn();
  } finally {
    api.clock.offsetMs -= minutes * 60_000;
  }
}

describe('sign-in links', () => {
  test('the answer is the same whether or not the address belongs to an operator; only an operator gets mail', async () => {
    const known = await api.call('POST', '/admin/sign_in', {
      body: { email: 'Owner@Acme.test' },
      headers: { origin: siteOrigin(api) },
    });
    const unknown = await api.call('POST', '/admin/sign_in', {
      body: { email: 'stranger@example.com' },
      headers: { origin: siteOrigin(api) },
    });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.text).toBe(known.text);
    expect(await mailsTo('stranger@example.com')).toBe(0);
    expect(await mailsTo('owner@acme.test')).toBeGreaterThan(1);
  });

  test('a link signs in once, sets an HttpOnly SameSite=Strict cookie and keeps only its hash', async () => {
    await api.call('POST', '/admin/sign_in', {
      body: { email: 'owner@acme.test' },
      headers: { origin: siteOrigin(api) },
    });
    const token = await mailedToken(api, 'owner@acme.test');
    const first = await confirmToken(api, token);
    expect(first.answer.status).toBe(200);
    expect(first.answer.body.stores).toEqual([
      { slug: 'acme', title: expect.any(String), role: 'owner', restricted: false },
    ]);
    const cookie = first.answer.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^admin_session=[\w-]{40,};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/);
    const stored = await api.db.selectFrom('operator_sign_in_tokens').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(token);
    const sessionId = first.cookie.split('=')[1]!;
    const sessions = await api.db.selectFrom('operator_sessions').select('id_hash').execute();
    expect(sessions.map((row) => row.id_hash)).not.toContain(sessionId);

    const again = await confirmToken(api, token);
    expect(again.answer.status).toBe(422);
    expect(again.answer.body.errors.token).toEqual([
      'This sign-in link has expired or was already used. Ask for a new one.',
    ]);
    expect(again.answer.headers.get('set-cookie')).toBeNull();
  });

  test('a link expires after 15 minutes', async () => {
    await api.call('POST', '/admin/sign_in', {
      body: { email: 'owner@acme.test' },
      headers: { origin: siteOrigin(api) },
    });
    const token = await mailedToken(api, 'owner@acme.test');
    const late = await later(16, () => confirmToken(api, token));
    expect(late.answer.status).toBe(422);
    const inTime = await later(14, () => confirmToken(api, token));
    expect(inTime.answer.status).toBe(200);
  });

  test('a malformed token is a field error, not a server error', async () => {
    const answer = await api.call('POST', '/admin/sign_in/confirm', {
      body: { token: '../../etc' },
      headers: { origin: siteOrigin(api) },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors.token).toEqual(['This sign-in link is not valid.']);
  });

  test('requests are limited per email, known or not, and per client', async () => {
    const windowMs = api.config.RATE_LIMIT_WINDOW_SECONDS * 1000;
    // A window of its own, far from the other tests' counts.
    const original = api.clock.now;
    const pinned = new Date(Math.floor(Date.now() / windowMs) * windowMs + 10 * 86_400_000 + 1000);
    api.clock.now = () => pinned;
    try {
      const ask = (email: string) =>
        api.call('POST', '/admin/sign_in', { body: { email }, headers: { origin: siteOrigin(api) } });
      for (const email of ['owner@acme.test', 'nobody@example.com']) {
        const statuses = [];
        for (let i = 0; i < 6; i++) statuses.push((await ask(email)).status);
        expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
      }
      const statuses = [];
      for (let i = 0; i < 30; i++) statuses.push((await ask(`client-${i}@example.com`)).status);
      // 12 counted above; the 41st request of this client is refused.
      expect(statuses.filter((s) => s === 429)).toHaveLength(2);
      const refused = await ask('another@example.com');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      api.clock.now = original;
    }
  });
});

describe('sessions', () => {
  test('me answers the stores and roles, never cached', async () => {
    const me = await owner.call('GET', '/admin/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'owner@acme.test', stores: [{ slug: 'acme', role: 'owner' }] });
    expect(me.headers.get('cache-control')).toBe('no-store');
  });

  test('a session ends after inactivity, and each call keeps it alive', async () => {
    const operator = await signIn(api, 'owner@acme.test');
    expect((await later(IDLE_MINUTES - 5, () => operator.call('GET', '/admin/me'))).status).toBe(200);
    expect((await later(2 * IDLE_MINUTES - 10, () => operator.call('GET', '/admin/me'))).status).toBe(200);
    const ended = await later(3 * IDLE_MINUTES, () => operator.call('GET', '/admin/me'));
    expect(ended.status).toBe(401);
    expect(ended.body.message).toBe('Please sign in to the console.');
  });

  test('signing out ends this session only; signing out everywhere ends them all', async () => {
    const a = await signIn(api, 'owner@acme.test');
    const b = await signIn(api, 'owner@acme.test');
    const c = await signIn(api, 'owner@acme.test');
    const out = await a.call('POST', '/admin/sign_out');
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^admin_session=;/);
    expect((await a.call('GET', '/admin/me')).status).toBe(401);
    expect((await b.call('GET', '/admin/me')).status).toBe(200);
    expect((await b.call('POST', '/admin/sign_out_everywhere')).status).toBe(200);
    expect((await b.call('GET', '/admin/me')).status).toBe(401);
    expect((await c.call('GET', '/admin/me')).status).toBe(401);
    expect((await owner.call('GET', '/admin/me')).status).toBe(401);
    owner = await signIn(api, 'owner@acme.test');
  });

  test('a cookie the API never issued is signed out', async () => {
    const answer = await api.call('GET', '/admin/me', { headers: { cookie: 'admin_session=forged-session-id' } });
    expect(answer.status).toBe(401);
  });
});

describe('CSRF', () => {
  const invite = (headers: Record<string, string>) =>
    api.call('POST', '/admin/stores/acme/staff', {
      body: { email: 'csrf-victim@example.com', role: 'owner' },
      headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf, origin: siteOrigin(api), ...headers },
    });

  test('a write from another origin, without an origin, or without the session’s token is refused and changes nothing', async () => {
    const foreign = await invite({ origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toBe('This request did not come from the console.');
    const noToken = await invite({ 'x-csrf-token': '' });
    expect(noToken.status).toBe(403);
    const wrongToken = await invite({ 'x-csrf-token': owner.csrf.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) });
    expect(wrongToken.status).toBe(403);
    const noOrigin = await api.call('POST', '/admin/stores/acme/staff', {
      body: { email: 'csrf-victim@example.com', role: 'owner' },
      headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrf },
    });
    expect(noOrigin.status).toBe(403);
    const signInFromElsewhere = await api.call('POST', '/admin/sign_in', {
      body: { email: 'owner@acme.test' },
      headers: { origin: 'https://evil.example' },
    });
    expect(signInFromElsewhere.status).toBe(403);
    expect(
      await api.db.selectFrom('operators').select('id').where('email', '=', 'csrf-victim@example.com').execute(),
    ).toEqual([]);
  });

  test('the public site origin is the console’s own too', async () => {
    const answer = await api.call('GET', '/admin/me', {
      headers: { cookie: owner.cookie, origin: 'http://shop.test' },
    });
    expect(answer.status).toBe(200);
    const write = await owner.call('POST', '/admin/stores/acme/staff', {
      body: { email: 'invalid' },
      headers: { origin: 'http://shop.test' },
    });
    expect(write.status).toBe(422);
  });
});

describe('staff and roles', () => {
  test('an owner invites an editor, who gets a link, signs in and may not manage staff or read the audit log', async () => {
    const invited = await owner.call('POST', '/admin/stores/acme/staff', {
      body: { email: 'Editor@Acme.test', role: 'editor' },
    });
    expect(invited.status).toBe(201);
    expect(invited.body.data).toMatchObject({ email: 'editor@acme.test', role: 'editor', you: false });
    const { answer } = await confirmToken(api, await mailedToken(api, 'editor@acme.test'));
    expect(answer.status).toBe(200);
    expect(answer.body.stores).toEqual([
      { slug: 'acme', title: expect.any(String), role: 'editor', restricted: false },
    ]);
    const editor = await signIn(api, 'editor@acme.test');
    for (const [method, path] of [
      ['GET', '/admin/stores/acme/staff'],
      ['POST', '/admin/stores/acme/staff'],
      ['PATCH', `/admin/stores/acme/staff/${invited.body.data.id}`],
      ['DELETE', `/admin/stores/acme/staff/${invited.body.data.id}`],
      ['GET', '/admin/stores/acme/audit'],
    ] as const) {
      const refused = await editor.call(
        method,
        path,
        method === 'GET' || method === 'DELETE' ? {} : { body: { email: 'x@example.com', role: 'owner' } },
      );
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.message).toBe('Only the store’s owners can do this.');
    }
    const again = await owner.call('POST', '/admin/stores/acme/staff', {
      body: { email: 'editor@acme.test', role: 'owner' },
    });
    expect(again.status).toBe(409);
  });

  test('bad input gets a message by field and writes nothing', async () => {
    const answer = await owner.call('POST', '/admin/stores/acme/staff', {
      body: { email: 'not-an-email', role: 'boss' },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual({
      email: ['Please enter a valid email address.'],
      role: ['Role must be owner or editor.'],
    });
    expect(await api.db.selectFrom('operators').select('id').where('email', '=', 'not-an-email').execute()).toEqual([]);
  });

  test('roles change and staff leave, but a store keeps one owner; every change is in the audit log', async () => {
    const { operatorId } = (await grantRole(api.db, 'acme', 'second@acme.test', 'editor'))!;
    const promoted = await owner.call('PATCH', `/admin/stores/acme/staff/${operatorId}`, { body: { role: 'owner' } });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data.role).toBe('owner');
    const staff = await owner.call('GET', '/admin/stores/acme/staff');
    const me = staff.body.data.find((member: { you: boolean }) => member.you);
    expect(me.email).toBe('owner@acme.test');
    expect((await owner.call('DELETE', `/admin/stores/acme/staff/${operatorId}`)).status).toBe(200);
    // acme also has the demo data's owner; so has vip, and once they are removed the new owner is its last.
    const vipOwner = await operatorOf(api, 'vip', 'only-owner@vip.test', 'owner');
    const vipStaff = await vipOwner.call('GET', '/admin/stores/vip/staff');
    const vipMe = vipStaff.body.data.find((member: { you: boolean }) => member.you);
    const demoOwner = vipStaff.body.data.find((member: { email: string }) => member.email === DEMO_VIP_OWNER_EMAIL);
    expect((await vipOwner.call('DELETE', `/admin/stores/vip/staff/${demoOwner.id}`)).status).toBe(200);
    const last = await vipOwner.call('PATCH', `/admin/stores/vip/staff/${vipMe.id}`, { body: { role: 'editor' } });
    expect(last.status).toBe(409);
    expect(last.body.message).toBe('A store must keep at least one owner.');
    expect((await vipOwner.call('DELETE', `/admin/stores/vip/staff/${vipMe.id}`)).status).toBe(409);
    expect((await owner.call('DELETE', '/admin/stores/acme/staff/999999')).status).toBe(404);

    const audit = await owner.call('GET', '/admin/stores/acme/audit');
    expect(audit.status).toBe(200);
    expect(audit.body.meta).toMatchObject({ page: 1, perPage: 50 });
    const [removed, changed] = audit.body.data;
    expect(removed).toMatchObject({
      actor: 'owner@acme.test',
      action: 'staff.remove',
      entity: 'operator',
      entity_id: String(operatorId),
      before: { email: 'second@acme.test', role: 'owner' },
      after: null,
    });
    expect(changed).toMatchObject({
      action: 'staff.change_role',
      before: { role: 'editor' },
      after: { role: 'owner' },
    });
    expect((await owner.call('GET', '/admin/stores/acme/audit?page=0')).status).toBe(422);
    const beyond = await owner.call('GET', '/admin/stores/acme/audit?page=99');
    expect(beyond.body.data).toEqual([]);
  });
});

describe('another store’s operator', () => {
  /** Console routes that name no store: they only ever answer about the caller's own session. */
  const STORELESS = [
    '/admin/sign_in',
    '/admin/sign_in/confirm',
    '/admin/me',
    '/admin/sign_out',
    '/admin/sign_out_everywhere',
    // Publishing's own calls: the bearer token or a session, each build read only by whom it concerns (builds.test.ts).
    '/admin/builds',
    '/admin/builds/{id}',
    '/admin/builds/{id}/events',
    '/admin/builds/{id}/live',
  ];
  const storeOperations = CONSOLE_OPERATIONS.filter((operation) => operation.path.includes('{slug}'));
  const concrete = (path: string, slug: string) => path.replace('{slug}', slug).replaceAll(/\{\w+\}/g, '1');
  const sampleBody = { email: 'intruder@example.com', role: 'owner' };
  let vipOwnerSession: Promise<Operator> | undefined;

  test('every console route either names a store or is one of the session routes', () => {
    expect(storeOperations.length).toBeGreaterThan(0);
    expect(
      CONSOLE_OPERATIONS.filter((operation) => !operation.path.includes('{slug}')).map((operation) => operation.path),
    ).toEqual(STORELESS);
  });

  test.each(
    storeOperations.map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation] as const),
  )('%s answers 404 to an owner of another store and writes nothing', async (_, operation) => {
    // Signed in once for the whole walk: a sign-in per route would pass the per-email limit.
    vipOwnerSession ??= operatorOf(api, 'vip', 'owner@vip.test', 'owner');
    const vipOwner = await vipOwnerSession;
    const auditBefore = await api.db.selectFrom('audit_log').select('id').execute();
    const answer = await vipOwner.call(operation.method.toUpperCase(), concrete(operation.path, 'acme'), {
      ...(operation.body ? { body: sampleBody } : {}),
    });
    expect(answer.status).toBe(404);
    expect(await api.db.selectFrom('audit_log').select('id').execute()).toEqual(auditBefore);
    // The same call on the operator's own store is let through (so the 404 above is the store check's).
    const own = await vipOwner.call(operation.method.toUpperCase(), concrete(operation.path, 'vip'), {
      ...(operation.body ? { body: { role: 'owner', email: 'x' } } : {}),
    });
    expect([200, 201, 202, 404, 409, 422]).toContain(own.status);
    // Only a record id may be unknown there (id 1 is another store's record, or no record at all).
    if (own.status === 404) expect(operation.path).toContain('{id}');
  });

  test.each(
    CONSOLE_OPERATIONS.filter((o) => !o.path.startsWith('/admin/sign_in')).map(
      (o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const,
    ),
  )('%s answers 401 without a session', async (_, operation) => {
    const answer = await api.call(operation.method.toUpperCase(), concrete(operation.path, 'acme'), {
      headers: { origin: siteOrigin(api) },
      ...(operation.body ? { body: sampleBody } : {}),
    });
    expect(answer.status).toBe(401);
  });
});

describe('the demo data', () => {
  test('has an owner of acme whose printed link signs in once', async () => {
    const link = await demoOwnerSignInLink(api.db, 'http://shop.test', api.clock.now());
    expect(link).toMatch(/^http:\/\/shop\.test\/admin\/signin\?token=[\w-]{40,}$/);
    const token = new URL(link!).searchParams.get('token')!;
    const { answer } = await confirmToken(api, token);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ email: DEMO_OWNER_EMAIL, stores: [{ slug: 'acme', role: 'owner' }] });
    expect((await confirmToken(api, token)).answer.status).toBe(422);
  });
});
