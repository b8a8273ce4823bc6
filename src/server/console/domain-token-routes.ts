/**
 * A restricted store's domain tokens in the console (docs/decisions/204-recipients-and-domain-tokens.md):
 * a random token shown in full once, with the store link carrying it (spec §2's `token`), masked ever
 * after; revoking it closes the store to every browser it opened, at once. Owners only; a public store
 * answers 409.
 */
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { Selectable } from 'kysely';
import type { DomainToken } from '../../lib/contract/answers.ts';
import { domainTokenPayload } from '../../lib/contract/payloads.ts';
import type { AllowedDomainTokensTable } from '../db/schema.ts';
import type { AppDeps } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { readJson, uuidId } from '../http/validation.ts';
import { accessLink } from '../stores/access-links.ts';
import { auditChange } from './audit-change.ts';
import { maskCode } from './gift-card-routes.ts';
import { restrictedStore } from './recipient-routes.ts';
import type { ConsoleEnv } from './routes.ts';

type TokenRow = Selectable<AllowedDomainTokensTable>;

/** 24 random bytes as base64url: 32 characters, 192 bits, within the access check's token syntax. */
const newDomainToken = () => randomBytes(24).toString('base64url');

const tokenAnswer = (row: TokenRow, token: string): DomainToken => ({
  id: row.id,
  token,
  label: row.label,
  created_at: row.created_at.toISOString(),
});

/** `…/stores/{slug}/domain_tokens…` of the console API. */
export function consoleDomainTokenRoutes({ db, clock, config }: AppDeps) {
  const app = new Hono<ConsoleEnv>();

  app.get('/', async (c) => {
    const store = restrictedStore(c);
    const rows = await db
      .selectFrom('allowed_domain_tokens')
      .selectAll()
      .where('store_id', '=', store.id)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return c.json({ data: rows.map((row) => tokenAnswer(row, maskCode(row.token))) });
  });

  app.post('/', async (c) => {
    const store = restrictedStore(c);
    const { label } = await readJson(c, domainTokenPayload, { emptyAs: {} });
    const now = clock.now();
    const row = await db.transaction().execute(async (trx) => {
      // 192 random bits do not collide with the store's other tokens; the primary key would refuse it anyway.
      const created = await trx
        .insertInto('allowed_domain_tokens')
        .values({ store_id: store.id, token: newDomainToken(), label, created_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      // The audit log keeps the masked token: the full one is shown once, to the owner who made it.
      await auditChange(trx, c.var, now, {
        action: 'domain_token.create',
        entity: 'domain_token',
        entityId: created.id,
        before: null,
        after: { token: maskCode(created.token), label },
      });
      return created;
    });
    const link = accessLink(store, store.custom_domain !== null, config.PUBLIC_SITE_URL, { token: row.token });
    return c.json({ data: { ...tokenAnswer(row, row.token), link: link.href } }, 201);
  });

  app.delete('/:id', async (c) => {
    const store = restrictedStore(c);
    const id = uuidId(c.req.param('id'));
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      const removed = await trx
        .deleteFrom('allowed_domain_tokens')
        .where('id', '=', id)
        .where('store_id', '=', store.id)
        .returningAll()
        .executeTakeFirst();
      if (!removed) throw notFound();
      await auditChange(trx, c.var, now, {
        action: 'domain_token.revoke',
        entity: 'domain_token',
        entityId: id,
        before: { token: maskCode(removed.token), label: removed.label },
        after: null,
      });
    });
    return c.json({ message: 'The token is revoked: links carrying it no longer open the store.' });
  });

  return app;
}
