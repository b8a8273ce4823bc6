import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { DevMail } from '../../lib/contract/answers.ts';
import { outboxQuery } from '../../lib/contract/payloads.ts';
import type { Database, MailRow } from '../db/schema.ts';
import type { AppEnv } from '../http/context.ts';
import { readQuery } from '../http/validation.ts';
import { latestMailsTo } from './outbox.ts';

const reshapeMail = (m: MailRow): DevMail => ({
  id: String(m.id),
  kind: m.kind,
  messageId: m.message_id,
  to: m.to_address,
  subject: m.subject,
  text: m.text_body,
  html: m.html_body,
  status: m.sent_at ? 'sent' : m.failed_at ? 'failed' : 'queued',
  attempts: m.attempts,
  lastError: m.last_error,
  createdAt: m.created_at.toISOString(),
  sentAt: m.sent_at?.toISOString() ?? null,
});

/**
 * `GET /dev/outbox?to={address}&limit={n}`: the latest mails to one address, newest first — how a
 * developer or an end-to-end test reads mail that never leaves the machine. app.ts mounts it only
 * without SMTP_URL and outside production: it shows every mail, sign-in links included.
 */
export function devMailRoutes(db: Kysely<Database>) {
  const app = new Hono<AppEnv>();
  app.get('/outbox', async (c) => {
    const { to, limit } = readQuery(c, outboxQuery);
    return c.json({ data: (await latestMailsTo(db, to, limit)).map(reshapeMail) });
  });
  return app;
}
