/**
 * Console sessions (docs/decisions/197-operator-auth.md): a random id in an HttpOnly, SameSite=Strict
 * cookie, its hash in `operator_sessions`; ended by inactivity, by the 30-day limit, or by signing out.
 */
import { sql, type Kysely } from 'kysely';
import type { Context, Env } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Database } from '../db/schema.ts';
import { hashSecret, newSecret } from './secrets.ts';

export const SESSION_COOKIE = 'admin_session';
const MAX_SESSION_DAYS = 30;

type Db = Kysely<Database>;

export type ConsoleSessionRow = {
  idHash: string;
  operatorId: number;
  email: string;
  csrfToken: string;
};

/** HTTPS as the browser sees it: the request's own scheme, or the one proxy's (TRUST_PROXY) in front. */
function overHttps<E extends Env>(c: Context<E>, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return trustProxy && c.req.header('x-forwarded-proto') === 'https';
}

/** Opens a session for the operator and sets its cookie; answers the session's CSRF token. */
export async function openSession<E extends Env>(
  c: Context<E>,
  db: Db,
  operatorId: number,
  options: { now: Date; idleMinutes: number; trustProxy: boolean },
): Promise<string> {
  const id = newSecret();
  const csrfToken = newSecret();
  const { now } = options;
  await db
    .insertInto('operator_sessions')
    .values({
      id_hash: hashSecret(id),
      operator_id: operatorId,
      csrf_token: csrfToken,
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(now.getTime() + options.idleMinutes * 60_000),
      revoked_at: null,
    })
    .execute();
  // No Max-Age: the browser forgets it when closed, the database ends it after inactivity anyway.
  setCookie(c, SESSION_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'Strict',
    secure: overHttps(c, options.trustProxy),
  });
  return csrfToken;
}

/**
 * The live session of the request's cookie, its idle deadline moved on (one statement); null when
 * there is no cookie or its session ended.
 */
export async function touchSession<E extends Env>(
  c: Context<E>,
  db: Db,
  options: { now: Date; idleMinutes: number },
): Promise<ConsoleSessionRow | null> {
  const id = getCookie(c, SESSION_COOKIE);
  if (!id || id.length > 200) return null;
  const { now } = options;
  const idleEnd = new Date(now.getTime() + options.idleMinutes * 60_000);
  const row = await db
    .updateTable('operator_sessions as s')
    .from('operators as o')
    .set({
      last_seen_at: now,
      expires_at: sql<Date>`least(${idleEnd}::timestamptz, s.created_at + ${`${MAX_SESSION_DAYS} days`}::interval)`,
    })
    .whereRef('o.id', '=', 's.operator_id')
    .where('s.id_hash', '=', hashSecret(id))
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .returning(['s.id_hash', 's.operator_id', 's.csrf_token', 'o.email'])
    .executeTakeFirst();
  if (!row) return null;
  return { idHash: row.id_hash, operatorId: row.operator_id, email: row.email, csrfToken: row.csrf_token };
}

/** Ends one session, or with `everywhere` all of its operator's, and clears the cookie. */
export async function endSessions<E extends Env>(
  c: Context<E>,
  db: Db,
  session: ConsoleSessionRow,
  options: { now: Date; everywhere: boolean },
): Promise<void> {
  let update = db.updateTable('operator_sessions').set({ revoked_at: options.now }).where('revoked_at', 'is', null);
  update = options.everywhere
    ? update.where('operator_id', '=', session.operatorId)
    : update.where('id_hash', '=', session.idHash);
  await update.execute();
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
}
