/**
 * One-time sign-in links of the console (docs/decisions/197-operator-auth.md): the token is mailed or
 * printed once and only its hash is kept; it is spent once, within 15 minutes.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { hashSecret, newSecret } from './secrets.ts';

export const SIGN_IN_LINK_MINUTES = 15;

type Db = Kysely<Database>;

/** Writes a new token for the operator and answers the link that spends it (`/admin/signin?token=…`). */
export async function newSignInLink(db: Db, operatorId: number, siteUrl: string, now: Date): Promise<string> {
  const token = newSecret();
  await db
    .insertInto('operator_sign_in_tokens')
    .values({
      token_hash: hashSecret(token),
      operator_id: operatorId,
      expires_at: new Date(now.getTime() + SIGN_IN_LINK_MINUTES * 60_000),
      used_at: null,
    })
    .execute();
  const link = new URL('/admin/signin', siteUrl);
  link.searchParams.set('token', token);
  return link.href;
}

export type SignInMail = {
  to: string;
  subject: string;
  /** The words before the link. */
  intro: string;
};

/** A new link for the operator, mailed through the outbox in the caller's transaction. */
export async function mailSignInLink(
  db: Db,
  operatorId: number,
  mail: SignInMail,
  options: { siteUrl: string; mailFrom: string; now: Date },
): Promise<void> {
  const link = await newSignInLink(db, operatorId, options.siteUrl, options.now);
  await enqueueMail(
    db,
    {
      kind: 'sign_in_link',
      dedupeKey: null,
      to: mail.to,
      subject: mail.subject,
      text: `${mail.intro}\n\n${link}\n\nThe link works once, within ${SIGN_IN_LINK_MINUTES} minutes. If you did not ask for it, ignore this message.`,
      html: null,
    },
    { mailFrom: options.mailFrom, now: options.now },
  );
}

/**
 * Spends a token: one statement, so two tabs cannot both spend it. Answers the operator's id, or null
 * for a token that is unknown, used or expired.
 */
export async function spendSignInToken(db: Db, token: string, now: Date): Promise<number | null> {
  const row = await db
    .updateTable('operator_sign_in_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashSecret(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('operator_id')
    .executeTakeFirst();
  return row?.operator_id ?? null;
}
