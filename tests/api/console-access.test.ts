/**
 * A restricted store's access lists in the console (docs/decisions/204-recipients-and-domain-tokens.md):
 * recipients added with a mailed link whose uuid opens the store, mailed again within hourly limits, searched
 * and paged, removed (their link and verified browsers shut out at once), imported from CSV row by row; domain
 * tokens shown once and revoked. Owners only; a public store is 409.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { SHOPPER_TOKEN } from '../../src/lib/contract/shopper-tokens.ts';
import { CSV_MESSAGES, MAX_IMPORT_BYTES } from '../../src/server/console/recipient-csv.ts';
import { ACCESS_MESSAGES } from '../../src/server/console/recipient-routes.ts';
import { CONSOLE_MESSAGES } from '../../src/server/console/routes.ts';
import { contractProblem } from './support/contract-check.ts';
import { operatorOf, siteOrigin, type Operator } from './support/operator.ts';
import { startTestApp, type ApiAnswer, type TestApp } from './support/test-app.ts';

let api: TestApp;
let owner: Operator;
let editor: Operator;
let acmeOwner: Operator;

const PER_RECIPIENT = 2;
const PER_STORE = 5;

beforeAll(async () => {
  api = await startTestApp({
    RATE_LIMIT_INVITATIONS_PER_RECIPIENT: String(PER_RECIPIENT),
    RATE_LIMIT_INVITATIONS_PER_STORE: String(PER_STORE),
    // The clock moves an hour per test (below): sessions must outlive that.
    ADMIN_SESSION_IDLE_MINUTES: '10000',
  });
  owner = await operatorOf(api, 'vip', 'owner@vip.test', 'owner');
  editor = await operatorOf(api, 'vip', 'editor@vip.test', 'editor');
  acmeOwner = await operatorOf(api, 'acme', 'owner@acme.test', 'owner');
});
afterAll(async () => api?.close());
// Every test starts in an hour of its own: the invitation limits count per hour.
beforeEach(() => {
  api.clock.offsetMs += 3_600_000;
});

const R = '/admin/stores/vip/recipients';
const T = '/admin/stores/vip/domain_tokens';
const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** The store as a shopper with these access headers sees it: 200 in, 422 refused. */
const storeStatus = async (headers: Record<string, string>) =>
  (await api.call('GET', '/store_front/vip', { headers })).status;

const mailsTo = (email: string) =>
  api.db
    .selectFrom('mail_outbox')
    .select(['kind', 'subject', 'text_body'])
    .where('to_address', '=', email)
    .orderBy('id')
    .execute();

async function add(email: string) {
  const answer = await owner.call('POST', R, { body: { email } });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.data as { id: string; email: string; invited_at: string | null };
}

/** A CSV upload as the console's page sends it; the answer is checked against the contract. */
async function importCsv(
  who: Operator,
  text: string | Uint8Array<ArrayBuffer>,
  name = 'guests.csv',
): Promise<ApiAnswer> {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), name);
  const response = await fetch(`${api.baseUrl}${R}/import`, {
    method: 'POST',
    headers: { cookie: who.cookie, origin: siteOrigin(api), 'x-csrf-token': who.csrf },
    body: form,
  });
  const body = await response.text();
  const problem = contractProblem('POST', `${R}/import`, response.status, body);
  if (problem) throw new Error(problem);
  return { status: response.status, body: body ? JSON.parse(body) : undefined, text: body, headers: response.headers };
}

describe('who may manage the lists', () => {
  test('an editor is refused every access route with the owners-only message', async () => {
    const calls: [string, string][] = [
      ['GET', R],
      ['POST', R],
      ['POST', `${R}/import`],
      ['POST', `${R}/8f14e45f-ea1c-4b4e-9d6a-000000000001/invitation`],
      ['DELETE', `${R}/8f14e45f-ea1c-4b4e-9d6a-000000000001`],
      ['GET', T],
      ['POST', T],
      ['DELETE', `${T}/8f14e45f-ea1c-4b4e-9d6a-000000000001`],
    ];
    for (const [method, path] of calls) {
      const answer = await editor.call(method, path, method === 'POST' ? { body: { email: 'x@example.com' } } : {});
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.message).toBe(CONSOLE_MESSAGES.ownersOnly);
    }
    expect(await mailsTo('x@example.com')).toEqual([]);
  });

  test('a public store answers 409 with a clear message and lists nothing', async () => {
    for (const [method, path] of [
      ['GET', '/admin/stores/acme/recipients'],
      ['POST', '/admin/stores/acme/recipients'],
      ['GET', '/admin/stores/acme/domain_tokens'],
      ['POST', '/admin/stores/acme/domain_tokens'],
    ] as const) {
      const answer = await acmeOwner.call(method, path, method === 'POST' ? { body: { email: 'y@example.com' } } : {});
      expect(answer.status, `${method} ${path}`).toBe(409);
      expect(answer.body.message).toBe(ACCESS_MESSAGES.publicStore);
    }
    expect(await mailsTo('y@example.com')).toEqual([]);
  });

  test('the session tells which of the operator’s stores are restricted', async () => {
    const me = await owner.call('GET', '/admin/me');
    expect(me.body.stores).toEqual([{ slug: 'vip', title: 'VIP Reserve', role: 'owner', restricted: true }]);
    const acme = await acmeOwner.call('GET', '/admin/me');
    expect(acme.body.stores).toEqual([{ slug: 'acme', title: expect.any(String), role: 'owner', restricted: false }]);
  });
});

describe('adding a recipient', () => {
  test('lists the address with a new uuid and mails the store link carrying it, which opens the store', async () => {
    const email = unique('Guest');
    expect(await storeStatus({})).toBe(422);
    const added = await add(email.toUpperCase());
    expect(added.email).toBe(email.toLowerCase());
    expect(added.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(added.invited_at).not.toBeNull();

    const [mail, ...more] = await mailsTo(email.toLowerCase());
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ kind: 'recipient_invitation', subject: 'You are invited to VIP Reserve' });
    // The spec's entry form (§2, §4): the store's home with `uuid`; here on the store's own domain.
    const link = /https?:\/\/\S+/.exec(mail!.text_body)![0];
    expect(link).toBe(`http://members.vip.test/?uuid=${added.id}`);
    const uuid = new URL(link).searchParams.get('uuid')!;
    expect(await storeStatus({ [SHOPPER_TOKEN.allowedRecipientToken]: uuid })).toBe(200);

    const audit = await owner.call('GET', '/admin/stores/vip/audit');
    expect(audit.body.data[0]).toMatchObject({
      action: 'recipient.add',
      entity_id: added.id,
      actor: 'owner@vip.test',
      before: null,
      after: { email: email.toLowerCase(), invited: true },
    });
  });

  test('an address already listed is 409 and mailed nothing; a bad one is 422 next to the field', async () => {
    const email = unique('twice');
    await add(email);
    const again = await owner.call('POST', R, { body: { email: ` ${email.toUpperCase()} ` } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(ACCESS_MESSAGES.alreadyListed);
    expect(await mailsTo(email)).toHaveLength(1);

    const bad = await owner.call('POST', R, { body: { email: 'not-an-email' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ email: ['Please enter a valid email address.'] });
  });

  test('invitations to one address are limited per hour: 429 saying when, nothing mailed', async () => {
    const recipient = await add(unique('limited'));
    for (let sent = 1; sent < PER_RECIPIENT; sent++) {
      const again = await owner.call('POST', `${R}/${recipient.id}/invitation`);
      expect(again.status, again.text).toBe(200);
      expect(again.body.data.invited_at).not.toBeNull();
    }
    const refused = await owner.call('POST', `${R}/${recipient.id}/invitation`);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(
      /^Too many invitations were sent in the last hour\. Try again in \d+ minutes?\.$/,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await mailsTo(recipient.email)).toHaveLength(PER_RECIPIENT);

    api.clock.offsetMs += 3_600_000;
    expect((await owner.call('POST', `${R}/${recipient.id}/invitation`)).status).toBe(200);
    expect(await mailsTo(recipient.email)).toHaveLength(PER_RECIPIENT + 1);
  });

  test('a store’s invitations are limited per hour, and a refused add lists nobody', async () => {
    for (let sent = 0; sent < PER_STORE; sent++) await add(unique('batch'));
    const email = unique('one-too-many');
    const refused = await owner.call('POST', R, { body: { email } });
    expect(refused.status).toBe(429);
    expect(await mailsTo(email)).toEqual([]);
    const listed = await owner.call('GET', `${R}?q=${encodeURIComponent(email)}`);
    expect(listed.body.data).toEqual([]);
  });
});

describe('the list', () => {
  test('is by address, 25 a page, and searched by part of an address (LIKE wildcards taken literally)', async () => {
    const tag = `pg${Date.now()}`;
    const emails = Array.from({ length: 27 }, (_, i) => `${tag}-${String(i).padStart(2, '0')}@example.com`);
    const csv = await importCsv(owner, emails.join('\n'));
    expect(csv.status, csv.text).toBe(200);

    const first = await owner.call('GET', `${R}?q=${tag.toUpperCase()}`);
    expect(first.body.meta).toEqual({ total: 27, page: 1, perPage: 25 });
    expect(first.body.data.map((r: { email: string }) => r.email)).toEqual(emails.slice(0, 25));
    const second = await owner.call('GET', `${R}?q=${tag}&page=2`);
    expect(second.body.data.map((r: { email: string }) => r.email)).toEqual(emails.slice(25));
    expect(second.body.data[0].invited_at).toBeNull();

    expect((await owner.call('GET', `${R}?q=${encodeURIComponent('%')}`)).body.data).toEqual([]);
    expect((await owner.call('GET', `${R}?q=${tag}_`)).body.data).toEqual([]);
    expect((await owner.call('GET', `${R}?page=0`)).status).toBe(422);
  });
});

describe('removing a recipient', () => {
  test('shuts out their link and every browser they verified at once, and is audited', async () => {
    const email = unique('leaving');
    const recipient = await add(email);
    const browserToken = `browser-${Date.now()}`;
    const verify = await api.call('POST', '/store_front/vip/allowed_users/verify', {
      body: { email, browser_token: browserToken },
    });
    expect(verify.status).toBe(202);
    // The browser opens the mailed link once: that verifies its token, which then opens the store alone.
    expect(
      await storeStatus({
        [SHOPPER_TOKEN.allowedRecipientToken]: recipient.id,
        [SHOPPER_TOKEN.browserToken]: browserToken,
      }),
    ).toBe(200);
    expect(await storeStatus({ [SHOPPER_TOKEN.browserToken]: browserToken })).toBe(200);

    const removed = await owner.call('DELETE', `${R}/${recipient.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.message).toBe(ACCESS_MESSAGES.removed(email));
    expect(await storeStatus({ [SHOPPER_TOKEN.allowedRecipientToken]: recipient.id })).toBe(422);
    expect(await storeStatus({ [SHOPPER_TOKEN.browserToken]: browserToken })).toBe(422);
    expect(
      await api.db.selectFrom('browser_tokens').select('token').where('token', '=', browserToken).execute(),
    ).toEqual([]);

    const audit = await owner.call('GET', '/admin/stores/vip/audit');
    expect(audit.body.data[0]).toMatchObject({
      action: 'recipient.remove',
      entity_id: recipient.id,
      before: { email },
      after: null,
    });
    expect((await owner.call('DELETE', `${R}/${recipient.id}`)).status).toBe(404);
    expect((await owner.call('POST', `${R}/${recipient.id}/invitation`)).status).toBe(404);
  });

  test('another store’s recipient is 404 and stays', async () => {
    const other = await acmeOwner.call('DELETE', `/admin/stores/vip/recipients/8f14e45f-ea1c-4b4e-9d6a-000000000001`);
    expect(other.status).toBe(404);
    expect(await storeStatus({ [SHOPPER_TOKEN.allowedRecipientToken]: '8f14e45f-ea1c-4b4e-9d6a-000000000001' })).toBe(
      200,
    );
  });
});

describe('importing a CSV file', () => {
  test('adds each valid row and reports the rest by row number: already listed, repeated, invalid; mails nobody', async () => {
    const listed = await add(unique('known'));
    const fresh = unique('fresh');
    const quoted = unique('quoted');
    const text = [
      'Name;E-mail',
      `Ann;${fresh.toUpperCase()}`,
      `Bob;${listed.email}`,
      'Cy;not-an-email',
      '',
      `"Dee; the second";"${quoted}"`,
      `Eve;${fresh}`,
      'Fay;',
    ].join('\r\n');
    const answer = await importCsv(owner, `\uFEFF${text}\r\n`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toEqual({
      added: [
        { row: 2, email: fresh },
        { row: 6, email: quoted },
      ],
      already_listed: [{ row: 3, email: listed.email }],
      duplicates: [{ row: 7, email: fresh, first_row: 2 }],
      invalid: [
        { row: 4, value: 'not-an-email', message: 'Please enter a valid email address.' },
        { row: 8, value: '', message: CSV_MESSAGES.noAddressInRow },
      ],
    });
    expect(await mailsTo(fresh)).toEqual([]);
    const found = await owner.call('GET', `${R}?q=${encodeURIComponent(fresh)}`);
    expect(found.body.data).toMatchObject([{ email: fresh, invited_at: null }]);
    const audit = await owner.call('GET', '/admin/stores/vip/audit');
    expect(audit.body.data[0]).toMatchObject({
      action: 'recipient.import',
      entity_id: 'guests.csv',
      after: { added: [fresh, quoted] },
    });

    // The same file again adds nothing and says so.
    const again = await importCsv(owner, text);
    expect(again.body.data.added).toEqual([]);
    expect(again.body.data.already_listed.map((r: { row: number }) => r.row)).toEqual([2, 3, 6]);
  });

  test('a file without a header is read from its first row', async () => {
    const email = unique('headless');
    const answer = await importCsv(owner, `${email},Some Name\n`);
    expect(answer.body.data.added).toEqual([{ row: 1, email }]);
  });

  test('refuses, next to the file and storing nothing: no file, no addresses, not UTF-8 text, too large', async () => {
    const before = await api.db.selectFrom('allowed_recipients').select('id').execute();
    const none = await owner.call('POST', `${R}/import`, { body: {} });
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual({ file: [ACCESS_MESSAGES.noFile] });
    expect((await importCsv(owner, 'email\n\n')).body.errors).toEqual({ file: [CSV_MESSAGES.noAddresses] });
    const latin1 = new Uint8Array([0x6a, 0xf6, 0x72, 0x67, 0x40, 0x78, 0x2e, 0x64, 0x65]);
    expect((await importCsv(owner, latin1)).body.errors).toEqual({ file: [CSV_MESSAGES.notText] });
    const huge = await importCsv(owner, `${'a'.repeat(MAX_IMPORT_BYTES)}@example.com`);
    expect(huge.status).toBe(413);
    expect(huge.body.message).toBe(CSV_MESSAGES.tooLarge);
    expect(await api.db.selectFrom('allowed_recipients').select('id').execute()).toEqual(before);
  });
});

describe('domain tokens', () => {
  test('a new token is shown in full once with its link, masked afterwards, opens the store until revoked', async () => {
    const created = await owner.call('POST', T, { body: { label: 'Partner intranet' } });
    expect(created.status, created.text).toBe(201);
    const { id, token, link, label } = created.body.data;
    expect(token).toMatch(/^[\w-]{32}$/);
    expect(label).toBe('Partner intranet');
    expect(link).toBe(`http://members.vip.test/?token=${token}`);
    expect(await storeStatus({ [SHOPPER_TOKEN.allowedDomainToken]: token })).toBe(200);

    const list = await owner.call('GET', T);
    const listed = list.body.data.find((t: { id: string }) => t.id === id);
    expect(listed).toEqual({ id, token: `${'•'.repeat(28)}${token.slice(-4)}`, label, created_at: expect.any(String) });
    expect(list.text).not.toContain(token);
    // The imported demo token is listed too, masked.
    expect(list.body.data.some((t: { token: string }) => t.token.endsWith('oken'))).toBe(true);

    const revoked = await owner.call('DELETE', `${T}/${id}`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(await storeStatus({ [SHOPPER_TOKEN.allowedDomainToken]: token })).toBe(422);
    expect((await owner.call('DELETE', `${T}/${id}`)).status).toBe(404);

    const audit = await owner.call('GET', '/admin/stores/vip/audit');
    expect(audit.text).not.toContain(token);
    expect(audit.body.data.slice(0, 2)).toMatchObject([
      { action: 'domain_token.revoke', entity_id: id, after: null },
      { action: 'domain_token.create', entity_id: id, before: null, after: { label: 'Partner intranet' } },
    ]);
  });

  test('a label over 100 characters is 422 next to it; no label is fine', async () => {
    const long = await owner.call('POST', T, { body: { label: 'x'.repeat(101) } });
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual({ label: ['Label must be at most 100 characters.'] });
    const bare = await owner.call('POST', T);
    expect(bare.status).toBe(201);
    expect(bare.body.data.label).toBe('');
  });
});
