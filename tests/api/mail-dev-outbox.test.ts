/**
 * Without SMTP_URL, `npm start`'s runtime (src/server/runtime.ts) delivers mail into the log and the
 * mail stays in the outbox, readable at `GET /api/dev/outbox` — never with SMTP_URL, never in production.
 * The runtime opens its own embedded database here, on either suite run.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { VIP_RECIPIENT } from '../../src/server/db/demo-data.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import * as initial from '../../src/server/db/migrations/0001_initial.ts';
import type { DevMail } from '../../src/lib/contract/answers.ts';
import { createApiRuntime, type ApiRuntime } from '../../src/server/runtime.ts';
import { withDatabaseUpTo } from './support/early-schema.ts';

let runtime: ApiRuntime;

beforeAll(async () => {
  runtime = await createApiRuntime(
    { DATA_DIR: 'memory://', NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_SITE_URL: 'http://shop.test' },
    { logRequests: false },
  );
});

afterAll(async () => {
  await runtime?.close();
});

async function call(method: string, path: string, body?: unknown) {
  const response = await runtime.app.request(
    `/api${path}`,
    body === undefined
      ? { method }
      : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  return { status: response.status, body: await response.json() };
}

const askForLink = () => call('POST', '/store_front/vip/allowed_users/verify', { email: VIP_RECIPIENT.email });

describe('the development outbox', () => {
  test('without SMTP_URL the runtime delivers into the log and the mail stays readable, newest first', async () => {
    expect((await askForLink()).status).toBe(202);
    expect((await askForLink()).status).toBe(202);
    await runtime.mail.deliverDue();

    const answer = await call('GET', `/dev/outbox?to=${encodeURIComponent('Guest@Example.com')}`);
    expect(answer.status).toBe(200);
    const mails = answer.body.data as DevMail[];
    expect(mails).toHaveLength(2);
    expect(Number(mails[0]!.id)).toBeGreaterThan(Number(mails[1]!.id));
    expect(mails[0]).toMatchObject({
      kind: 'sign_in_link',
      to: VIP_RECIPIENT.email,
      subject: 'Your sign-in link for VIP Reserve',
      status: 'sent',
      attempts: 1,
      html: null,
      lastError: null,
    });
    expect(mails[0]!.text).toContain(`http://shop.test/vip?uuid=${VIP_RECIPIENT.uuid}`);
    expect(mails[0]!.messageId).toMatch(/^<[0-9a-f-]{36}@storefront\.local>$/);
    expect(mails[0]!.sentAt).not.toBeNull();

    const latest = await call('GET', `/dev/outbox?to=${VIP_RECIPIENT.email}&limit=1`);
    expect((latest.body.data as DevMail[]).map((m) => m.id)).toEqual([mails[0]!.id]);
    expect((await call('GET', '/dev/outbox?to=nobody@example.com')).body).toEqual({ data: [] });
  });

  test('a query without an address, or with a limit out of 1..50, is a 422 naming the field', async () => {
    expect(await call('GET', '/dev/outbox')).toEqual({
      status: 422,
      body: { message: 'to is required.', errors: { to: ['to is required.'] } },
    });
    expect((await call('GET', '/dev/outbox?to=not-an-address')).body.errors).toEqual({
      to: ['to must be an email address.'],
    });
    expect((await call('GET', `/dev/outbox?to=${VIP_RECIPIENT.email}&limit=51`)).body.errors).toEqual({
      limit: ['limit must be 1 to 50.'],
    });
    expect((await call('GET', `/dev/outbox?to=${VIP_RECIPIENT.email}&limit=x`)).status).toBe(422);
  });

  test('is never mounted when SMTP_URL is set or in production', async () => {
    for (const env of [{ NODE_ENV: 'test', SMTP_URL: 'smtp://127.0.0.1:2525' }, { NODE_ENV: 'production' }]) {
      const app = createApp({ db: runtime.db, payments: null, config: loadConfig(env) });
      const response = await app.request(`/api/dev/outbox?to=${VIP_RECIPIENT.email}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: 'Record not found' });
    }
  });

  test('closing the runtime stops its worker: later rounds deliver nothing', async () => {
    const other = await createApiRuntime(
      { DATA_DIR: 'memory://', NODE_ENV: 'test', LOG_LEVEL: 'silent' },
      { logRequests: false },
    );
    await other.close();
    await expect(other.mail.deliverDue()).resolves.toEqual({ delivered: 0, retried: 0, failed: 0 });
    // A second embedded database: its initdb takes seconds on a busy machine.
  }, 60_000);
});

test('migrating keeps the mails of the old dev_outbox table, as delivered, in the one outbox', async () => {
  await withDatabaseUpTo({ '0001_initial': initial }, async (db) => {
    const old = db as unknown as import('kysely').Kysely<{
      dev_outbox: { to_address: string; subject: string; body: string };
    }>;
    await old
      .insertInto('dev_outbox')
      .values([
        { to_address: 'guest@example.com', subject: 'Your sign-in link for VIP Reserve', body: 'Open this link' },
      ])
      .execute();

    await migrateToLatest(db);
    const rows = await db.selectFrom('mail_outbox').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      to_address: 'guest@example.com',
      subject: 'Your sign-in link for VIP Reserve',
      text_body: 'Open this link',
      failed_at: null,
    });
    expect(rows[0]!.sent_at).not.toBeNull();
    expect(rows[0]!.message_id).toMatch(/^<dev-outbox-1@storefront\.local>$/);
  });
}, 60_000);
