/**
 * The one mail outbox (docs/decisions/100-mail-outbox.md). A mail is a row written in the same
 * transaction as the change it reports; the outbox worker (outbox-worker.ts) claims due rows with a
 * lease and delivers them. Nothing here talks to SMTP.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import addressparser from 'nodemailer/lib/addressparser';
import type { Database, MailRow } from '../db/schema.ts';

type Db = Kysely<Database>;

export type MailKind = 'order_receipt' | 'sign_in_link' | 'order_shipped' | 'order_refund' | 'recipient_invitation';

export type NewMail = {
  kind: MailKind;
  /** One mail per fact: a second enqueue with the same key is ignored. */
  dedupeKey: string | null;
  to: string;
  subject: string;
  text: string;
  html: string | null;
};

/** What routes hold of the outbox: a nudge after a mail was committed, so it leaves now rather than at the next poll. */
export type MailWakeup = {
  wake(): void;
};

export const noWakeup: MailWakeup = { wake() {} };

/** `<uuid@domain>` with the sender's domain (RFC 5322 §3.6.4), fixed once per mail. */
export function newMessageId(mailFrom: string): string {
  const sender = addressparser(mailFrom, { flatten: true })[0]?.address ?? '';
  const domain = sender.split('@')[1] || 'storefront.local';
  return `<${randomUUID()}@${domain}>`;
}

// Header values cannot hold line breaks; a store title or name with one must not start a header.
const oneLine = (value: string) => value.replace(/[\r\n\t]+/g, ' ').trim();

/**
 * Writes a mail into the outbox on `db` (pass the transaction of the change the mail reports).
 * Answers false when a mail with the same dedupe key exists already.
 */
export async function enqueueMail(db: Db, mail: NewMail, options: { mailFrom: string; now: Date }): Promise<boolean> {
  const inserted = await db
    .insertInto('mail_outbox')
    .values({
      kind: mail.kind,
      dedupe_key: mail.dedupeKey,
      message_id: newMessageId(options.mailFrom),
      to_address: oneLine(mail.to),
      subject: oneLine(mail.subject),
      text_body: mail.text,
      html_body: mail.html,
      next_attempt_at: options.now,
      locked_until: null,
      lease_token: null,
      last_error: null,
      sent_at: null,
      failed_at: null,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** A claimed mail: the row plus the claim that lets its worker record the outcome. */
export type ClaimedMail = {
  mail: MailRow;
  leaseToken: string;
  leaseEnds: Date;
};

/**
 * Takes up to `limit` due mails for one worker until `now + leaseMs`. One statement: rows locked by
 * another worker's claim are skipped (SKIP LOCKED), and a row whose lease has not ended is not due,
 * so two instances on one PostgreSQL never hold the same mail at once.
 */
export async function claimDueMails(db: Db, now: Date, leaseMs: number, limit: number): Promise<ClaimedMail[]> {
  const leaseToken = randomUUID();
  const leaseEnds = new Date(now.getTime() + leaseMs);
  const rows = await db
    .updateTable('mail_outbox')
    .set((eb) => ({ locked_until: leaseEnds, lease_token: leaseToken, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('mail_outbox')
        .select('id')
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .where('next_attempt_at', '<=', now)
        .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<=', now)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.id - b.id).map((mail) => ({ mail, leaseToken, leaseEnds }));
}

/** The transport took the mail. Recorded whoever holds the lease now: the mail is out either way. */
export async function recordSent(db: Db, id: number, now: Date): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ sent_at: now, locked_until: null, lease_token: null, last_error: null })
    .where('id', '=', id)
    .where('sent_at', 'is', null)
    .execute();
}

/**
 * A failed attempt: retried at `retryAt`, or given up (`retryAt` null). Only under the claim that
 * tried it, so a worker whose lease ran out cannot undo another worker's delivery.
 */
export async function recordFailure(
  db: Db,
  claim: ClaimedMail,
  error: string,
  retryAt: Date | null,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({
      last_error: error.slice(0, 1000),
      locked_until: null,
      lease_token: null,
      ...(retryAt ? { next_attempt_at: retryAt } : { failed_at: now }),
    })
    .where('id', '=', claim.mail.id)
    .where('lease_token', '=', claim.leaseToken)
    .where('sent_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Hands claimed mails back untried (a worker stopping): due again at once, the attempt not counted. */
export async function releaseClaims(db: Db, claims: readonly ClaimedMail[]): Promise<void> {
  if (claims.length === 0) return;
  await db
    .updateTable('mail_outbox')
    .set((eb) => ({ locked_until: null, lease_token: null, attempts: eb('attempts', '-', 1) }))
    .where(
      'id',
      'in',
      claims.map((c) => c.mail.id),
    )
    .where('lease_token', '=', claims[0]!.leaseToken)
    .where('sent_at', 'is', null)
    .execute();
}

/** The latest mails to one address, newest first (the development read path). */
export async function latestMailsTo(db: Db, address: string, limit: number): Promise<MailRow[]> {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where(sql<string>`lower(to_address)`, '=', address.trim().toLowerCase())
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
