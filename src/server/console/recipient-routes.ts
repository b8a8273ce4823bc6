/**
 * A restricted store's allowed recipients in the console (docs/decisions/204-recipients-and-domain-tokens.md):
 * listed by address with a new uuid and mailed the store link carrying it (spec §2's `uuid`), mailed again,
 * removed — their link and the browsers they verified stop opening the store at once (browser tokens go
 * with the row) — and imported from a CSV file row by row. Owners only; a public store answers 409.
 */
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { AllowedRecipient, RecipientImport } from '../../lib/contract/answers.ts';
import { addRecipientPayload, recipientsQuery } from '../../lib/contract/payloads.ts';
import type { AllowedRecipientsTable, Database, StoreRow } from '../db/schema.ts';
import { limitBody } from '../http/body-limit.ts';
import type { AppDeps } from '../http/context.ts';
import { conflict, HttpError, invalidField, notFound } from '../http/errors.ts';
import { enforceLimits } from '../http/rate-limit.ts';
import { readJson, readQuery, uuidId } from '../http/validation.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { accessLink } from '../stores/access-links.ts';
import { auditChange } from './audit-change.ts';
import { CSV_MESSAGES, MAX_IMPORT_BYTES, readRecipientCsv } from './recipient-csv.ts';
import type { ConsoleEnv } from './routes.ts';

type Db = Kysely<Database>;
type RecipientRow = Selectable<AllowedRecipientsTable>;

/** The import route's path: the API's 64 KB body limit leaves it to this module's own. */
export const RECIPIENT_IMPORT_PATH = /^\/api\/admin\/stores\/[^/]+\/recipients\/import$/;

export const ACCESS_MESSAGES = {
  publicStore: 'This store is public: allowed recipients and domain tokens only apply to a restricted store.',
  alreadyListed: 'This address is already on the list.',
  noFile: 'Choose a CSV file of email addresses to import.',
  removed: (email: string) => `${email} can no longer enter the store.`,
  tooManyInvitations: (minutes: number) =>
    `Too many invitations were sent in the last hour. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
} as const;

const PAGE_SIZE = 25;
/** Invitation limits count per hour: a window of a minute would let a stolen session mail 6,000 strangers an hour. */
const INVITATION_WINDOW_SECONDS = 3600;
/** Rows per insert statement of an import: 3 parameters each, far below PostgreSQL's 65,535. */
const INSERT_CHUNK = 1000;
/** Room for the multipart framing around the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

/** The console's store, refused with 409 when it is public (it has no access lists to manage). */
export function restrictedStore(c: Context<ConsoleEnv>): StoreRow {
  const store = c.var.consoleStore;
  if (!store.restricted) throw conflict(ACCESS_MESSAGES.publicStore);
  return store;
}

const recipientAnswer = (row: RecipientRow): AllowedRecipient => ({
  id: row.id,
  email: row.email,
  created_at: row.created_at.toISOString(),
  invited_at: row.invited_at?.toISOString() ?? null,
});

/** `%`, `_` and `\` typed in a search are letters, not LIKE's wildcards. */
const likeText = (text: string) => text.replaceAll(/[\\%_]/g, (char) => `\\${char}`);

/** `…/stores/{slug}/recipients…` of the console API. */
export function consoleRecipientRoutes({ db, clock, config, rateLimits, mail }: AppDeps) {
  const app = new Hono<ConsoleEnv>();

  /** Counts one invitation to `email`; over either hourly limit → 429 saying when to try again, nothing mailed. */
  async function countInvitation(store: StoreRow, email: string, now: Date): Promise<void> {
    try {
      // The recipient's limit first: a refused resend to one address does not spend the store's allowance.
      await enforceLimits(
        rateLimits,
        [
          { key: `invitation:recipient:${store.id}:${email}`, max: config.RATE_LIMIT_INVITATIONS_PER_RECIPIENT },
          { key: `invitation:store:${store.id}`, max: config.RATE_LIMIT_INVITATIONS_PER_STORE },
        ],
        INVITATION_WINDOW_SECONDS,
        now,
      );
    } catch (error) {
      if (!(error instanceof HttpError) || error.status !== 429) throw error;
      const minutes = Math.ceil(Number(error.headers['Retry-After'] ?? INVITATION_WINDOW_SECONDS) / 60);
      throw new HttpError(429, { message: ACCESS_MESSAGES.tooManyInvitations(minutes) }, error.headers);
    }
  }

  /** Mails the recipient their link and notes when, in the caller's transaction. */
  async function invite(trx: Db, store: StoreRow, recipient: RecipientRow, now: Date): Promise<RecipientRow> {
    // On the store's own domain when it has one: the address its shoppers know (store-links.ts).
    const link = accessLink(store, store.custom_domain !== null, config.PUBLIC_SITE_URL, { uuid: recipient.id });
    await enqueueMail(
      trx,
      {
        kind: 'recipient_invitation',
        dedupeKey: null,
        to: recipient.email,
        subject: `You are invited to ${store.title}`,
        text: `${store.title} is open to invited guests, and you are one of them. Open this link to enter:\n\n${link.href}\n\nThe link is yours alone: it lets this browser in and keeps it in for 7 days. If you did not expect this invitation, ignore this message.`,
        html: null,
      },
      { mailFrom: config.MAIL_FROM, now },
    );
    return trx
      .updateTable('allowed_recipients')
      .set({ invited_at: now })
      .where('id', '=', recipient.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  app.get('/', async (c) => {
    const store = restrictedStore(c);
    const { q, page } = readQuery(c, recipientsQuery);
    const matching = () => {
      const query = db.selectFrom('allowed_recipients').where('store_id', '=', store.id);
      return q ? query.where('email', 'like', `%${likeText(q)}%`) : query;
    };
    const [rows, total] = await Promise.all([
      matching()
        .selectAll()
        .orderBy('email')
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
        .execute(),
      matching()
        .select(sql<number>`count(*)::int`.as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    return c.json({ data: rows.map(recipientAnswer), meta: { total: total.total, page, perPage: PAGE_SIZE } });
  });

  app.post('/', async (c) => {
    const store = restrictedStore(c);
    const { email } = await readJson(c, addRecipientPayload);
    const listed = await db
      .selectFrom('allowed_recipients')
      .select('id')
      .where('store_id', '=', store.id)
      .where('email', '=', email)
      .executeTakeFirst();
    if (listed) throw conflict(ACCESS_MESSAGES.alreadyListed);
    const now = clock.now();
    await countInvitation(store, email, now);
    const recipient = await db.transaction().execute(async (trx) => {
      const added = await trx
        .insertInto('allowed_recipients')
        .values({ id: randomUUID(), store_id: store.id, email, created_at: now, invited_at: null })
        .onConflict((oc) => oc.columns(['store_id', 'email']).doNothing())
        .returningAll()
        .executeTakeFirst();
      // Another owner listed it between the check above and this insert.
      if (!added) throw conflict(ACCESS_MESSAGES.alreadyListed);
      await auditChange(trx, c.var, now, {
        action: 'recipient.add',
        entity: 'allowed_recipient',
        entityId: added.id,
        before: null,
        after: { email, invited: true },
      });
      return invite(trx, store, added, now);
    });
    mail.wake();
    return c.json({ data: recipientAnswer(recipient) }, 201);
  });

  app.post(
    '/import',
    limitBody(MAX_IMPORT_BYTES + MULTIPART_OVERHEAD, { message: CSV_MESSAGES.tooLarge }),
    async (c) => {
      const store = restrictedStore(c);
      let form: Record<string, string | File | (string | File)[]>;
      try {
        form = await c.req.parseBody();
      } catch {
        throw invalidField('file', ACCESS_MESSAGES.noFile);
      }
      const file = form.file;
      if (!(file instanceof File)) throw invalidField('file', ACCESS_MESSAGES.noFile);
      if (file.size > MAX_IMPORT_BYTES) throw new HttpError(413, { message: CSV_MESSAGES.tooLarge });
      const reading = readRecipientCsv(new Uint8Array(await file.arrayBuffer()));
      if ('refused' in reading) throw invalidField('file', reading.refused);

      const now = clock.now();
      const added = await db.transaction().execute(async (trx) => {
        const inserted = new Set<string>();
        for (let start = 0; start < reading.valid.length; start += INSERT_CHUNK) {
          const chunk = reading.valid.slice(start, start + INSERT_CHUNK);
          const rows = await trx
            .insertInto('allowed_recipients')
            .values(chunk.map(({ email }) => ({ id: randomUUID(), store_id: store.id, email, created_at: now })))
            .onConflict((oc) => oc.columns(['store_id', 'email']).doNothing())
            .returning('email')
            .execute();
          for (const row of rows) inserted.add(row.email);
        }
        if (inserted.size > 0)
          await auditChange(trx, c.var, now, {
            action: 'recipient.import',
            entity: 'allowed_recipient',
            entityId: file.name.slice(0, 200),
            before: null,
            after: { added: [...inserted] },
          });
        return inserted;
      });
      const data: RecipientImport = {
        added: reading.valid.filter((row) => added.has(row.email)),
        already_listed: reading.valid.filter((row) => !added.has(row.email)),
        duplicates: reading.duplicates,
        invalid: reading.invalid,
      };
      return c.json({ data });
    },
  );

  /** The store's recipient named by the path, locked for the change (404 when it is not the store's). */
  const lockRecipient = async (trx: Db, store: StoreRow, id: string) => {
    const row = await trx
      .selectFrom('allowed_recipients')
      .selectAll()
      .where('id', '=', id)
      .where('store_id', '=', store.id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound();
    return row;
  };

  app.post('/:id/invitation', async (c) => {
    const store = restrictedStore(c);
    const id = uuidId(c.req.param('id'));
    const listed = await db
      .selectFrom('allowed_recipients')
      .select('email')
      .where('id', '=', id)
      .where('store_id', '=', store.id)
      .executeTakeFirst();
    if (!listed) throw notFound();
    const now = clock.now();
    await countInvitation(store, listed.email, now);
    const recipient = await db.transaction().execute(async (trx) => {
      const before = await lockRecipient(trx, store, id);
      const after = await invite(trx, store, before, now);
      await auditChange(trx, c.var, now, {
        action: 'recipient.invite',
        entity: 'allowed_recipient',
        entityId: id,
        before: { email: before.email, invited_at: before.invited_at?.toISOString() ?? null },
        after: { email: after.email, invited_at: now.toISOString() },
      });
      return after;
    });
    mail.wake();
    return c.json({ data: recipientAnswer(recipient) });
  });

  app.delete('/:id', async (c) => {
    const store = restrictedStore(c);
    const id = uuidId(c.req.param('id'));
    const now = clock.now();
    const removed = await db.transaction().execute(async (trx) => {
      const before = await lockRecipient(trx, store, id);
      // Its browser tokens are deleted with it (on delete cascade): a browser it verified is out at once too.
      await trx.deleteFrom('allowed_recipients').where('id', '=', id).execute();
      await auditChange(trx, c.var, now, {
        action: 'recipient.remove',
        entity: 'allowed_recipient',
        entityId: id,
        before: { email: before.email },
        after: null,
      });
      return before;
    });
    return c.json({ message: ACCESS_MESSAGES.removed(removed.email) });
  });

  return app;
}
