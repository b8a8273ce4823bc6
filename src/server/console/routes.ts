/**
 * The console's API under /api/admin (docs/decisions/197-operator-auth.md): sign-in links, sessions,
 * staff, the audit log and store settings, the stores' products, collections, bundles, gift cards and
 * orders, and restricted stores' access lists. Every write must come from the site's own origin; every
 * signed-in write carries the session's CSRF token; a store the operator has no role in is 404, like one
 * that does not exist; an editor on an owner's route is 403.
 */
import { timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { sql, type Kysely } from 'kysely';
import type { AuditEntry, ConsoleSession, OperatorRole, StaffMember } from '../../lib/contract/answers.ts';
import {
  auditQuery,
  changeRolePayload,
  inviteOperatorPayload,
  signInConfirmPayload,
  signInRequestPayload,
} from '../../lib/contract/payloads.ts';
import type { Database, StoreRow } from '../db/schema.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { conflict, HttpError, invalidField, notFound } from '../http/errors.ts';
import { clientAddress, enforceLimits } from '../http/rate-limit.ts';
import { intId, readJson, readQuery } from '../http/validation.ts';
import { recordAudit } from './audit.ts';
import { consoleBundleRoutes } from './bundle-routes.ts';
import { consoleCollectionRoutes } from './collection-routes.ts';
import { consoleDomainTokenRoutes } from './domain-token-routes.ts';
import { consoleGiftCardRoutes } from './gift-card-routes.ts';
import { consoleImageRoutes } from './image-routes.ts';
import { consoleOrderRoutes } from './order-routes.ts';
import { ensureOperator, operatorStores, roleIn } from './operators.ts';
import { endSessions, openSession, touchSession, type ConsoleSessionRow } from './sessions.ts';
import { consoleProductRoutes } from './product-routes.ts';
import { consoleProductLifecycleRoutes } from './product-lifecycle-routes.ts';
import { consoleVariantRoutes } from './variant-routes.ts';
import { consoleSettingsRoutes } from './settings-routes.ts';
import { consoleRecipientRoutes } from './recipient-routes.ts';
import { mailSignInLink, spendSignInToken } from './sign-in-links.ts';
import { PUBLISHING_MESSAGES, publishingRoutes, TOKEN_PATHS, tokenRequired } from '../publishing/routes.ts';
import { catalogChanged } from '../publishing/auto-publish.ts';

export type ConsoleEnv = AppEnv & {
  Variables: {
    session: ConsoleSessionRow;
    consoleStore: StoreRow;
    role: OperatorRole;
    /** The publishing token opened this call instead of a session (docs/decisions/202-publishing-builds.md). */
    viaToken: boolean;
  };
};

export const CONSOLE_MESSAGES = {
  signInSent: 'If this email address belongs to an operator, a sign-in link is on its way.',
  signInRequired: 'Please sign in to the console.',
  linkSpent: 'This sign-in link has expired or was already used. Ask for a new one.',
  foreignOrigin: 'This request did not come from the console.',
  csrfMissing: 'This request is missing the console’s security token. Reload the page and try again.',
  ownersOnly: 'Only the store’s owners can do this.',
  alreadyStaff: 'This person is already on the store’s staff.',
  lastOwner: 'A store must keep at least one owner.',
} as const;

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The calls made before there is a session. */
const SIGNED_OUT_PATHS = ['/sign_in', '/sign_in/confirm'];
const AUDIT_PAGE_SIZE = 50;

const forbidden = (message: string) => new HttpError(403, { message });

function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The site's own origins: the one this request was made to, and the public one mail links name. */
function ownOrigins(requestUrl: string, siteUrl: string): string[] {
  return [new URL(requestUrl).origin, new URL(siteUrl).origin];
}

const staffAnswer = (row: { id: number; email: string; role: OperatorRole }, you: number): StaffMember => ({
  id: String(row.id),
  email: row.email,
  role: row.role,
  you: row.id === you,
});

/** Everything under /api/admin. */
export function consoleRoutes(deps: AppDeps) {
  const { db, clock, config, rateLimits } = deps;
  const app = new Hono<ConsoleEnv>();
  const sessionOptions = () => ({ now: clock.now(), idleMinutes: config.ADMIN_SESSION_IDLE_MINUTES });

  const gate = createMiddleware<ConsoleEnv>(async (c, next) => {
    const path = c.req.path.replace(/^\/api\/admin/, '');
    // A script's bearer token is no ambient credential a foreign page could make a browser send: no origin
    // or CSRF check applies to it (docs/decisions/202-publishing-builds.md).
    const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (bearer !== undefined && TOKEN_PATHS.test(path)) {
      if (!deps.publishing) throw new HttpError(503, { message: PUBLISHING_MESSAGES.unavailable });
      if (!sameSecret(bearer, deps.publishing.token)) throw tokenRequired();
      c.set('viaToken', true);
      return next();
    }
    c.set('viaToken', false);
    const writing = WRITES.has(c.req.method);
    // SameSite=Strict keeps the cookie off cross-site requests; the origin check also covers the
    // signed-out calls (no one else's page may sign a browser in).
    if (writing) {
      const origin = c.req.header('origin');
      if (!origin || !ownOrigins(c.req.url, config.PUBLIC_SITE_URL).includes(origin))
        throw forbidden(CONSOLE_MESSAGES.foreignOrigin);
    }
    if (SIGNED_OUT_PATHS.includes(path)) return next();
    const session = await touchSession(c, db, sessionOptions());
    if (!session) throw new HttpError(401, { message: CONSOLE_MESSAGES.signInRequired });
    if (writing && !sameSecret(c.req.header('x-csrf-token'), session.csrfToken))
      throw forbidden(CONSOLE_MESSAGES.csrfMissing);
    c.set('session', session);
    return next();
  });
  app.use('*', gate);

  /** A store's routes: 404 for a store the operator has no role in (as for one that does not exist). */
  app.use('/stores/:slug/*', async (c, next) => {
    const store = await db.selectFrom('stores').selectAll().where('slug', '=', c.req.param('slug')).executeTakeFirst();
    const role = store ? await roleIn(db, c.var.session.operatorId, store.id) : null;
    if (!store || !role) throw notFound();
    c.set('consoleStore', store);
    c.set('role', role);
    return next();
  });
  const ownersOnly = async (c: Context<ConsoleEnv>, next: () => Promise<void>) => {
    if (c.var.role !== 'owner') throw forbidden(CONSOLE_MESSAGES.ownersOnly);
    await next();
  };
  app.use('/stores/:slug/staff', ownersOnly);
  app.use('/stores/:slug/staff/*', ownersOnly);
  app.use('/stores/:slug/audit', ownersOnly);
  // Settings are the owners' (docs/decisions/203-console-store-settings.md).
  app.use('/stores/:slug/settings', ownersOnly);
  app.use('/stores/:slug/settings/*', ownersOnly);
  // Money leaving the store is the owners' call (docs/decisions/198-console-orders.md).
  app.use('/stores/:slug/orders/:id/refunds', ownersOnly);
  app.use('/stores/:slug/orders/:id/refunds/*', ownersOnly);
  // Who may enter a restricted store is a store setting (docs/decisions/204-recipients-and-domain-tokens.md).
  app.use('/stores/:slug/recipients', ownersOnly);
  app.use('/stores/:slug/recipients/*', ownersOnly);
  app.use('/stores/:slug/domain_tokens', ownersOnly);
  app.use('/stores/:slug/domain_tokens/*', ownersOnly);

  const sessionAnswer = async (operatorId: number, email: string, csrfToken: string): Promise<ConsoleSession> => ({
    email,
    stores: await operatorStores(db, operatorId),
    csrf_token: csrfToken,
  });

  app.post('/sign_in', async (c) => {
    const { email } = await readJson(c, signInRequestPayload);
    // Counted for unknown addresses too: a 429 says nothing about the address.
    await enforceLimits(
      rateLimits,
      [
        {
          key: `admin-sign-in:client:${clientAddress(c, config.TRUST_PROXY)}`,
          max: config.RATE_LIMIT_ADMIN_SIGN_IN_PER_CLIENT,
        },
        { key: `admin-sign-in:email:${email}`, max: config.RATE_LIMIT_ADMIN_SIGN_IN_PER_EMAIL },
      ],
      config.RATE_LIMIT_WINDOW_SECONDS,
      clock.now(),
    );
    const operator = await db
      .selectFrom('operators as o')
      .select('o.id')
      .where('o.email', '=', email)
      .where((eb) =>
        eb.exists(eb.selectFrom('store_operators').select('store_id').whereRef('operator_id', '=', 'o.id')),
      )
      .executeTakeFirst();
    if (operator) {
      const now = clock.now();
      await db.transaction().execute((trx) =>
        mailSignInLink(
          trx,
          operator.id,
          {
            to: email,
            subject: 'Your sign-in link to the store console',
            intro: 'Open this link to sign in to the store console:',
          },
          { siteUrl: config.PUBLIC_SITE_URL, mailFrom: config.MAIL_FROM, now },
        ),
      );
      deps.mail.wake();
    }
    return c.json({ message: CONSOLE_MESSAGES.signInSent }, 202);
  });

  app.post('/sign_in/confirm', async (c) => {
    const { token } = await readJson(c, signInConfirmPayload);
    const now = clock.now();
    const { operatorId, email, csrfToken } = await db.transaction().execute(async (trx) => {
      const spentBy = await spendSignInToken(trx, token, now);
      if (spentBy === null) throw invalidField('token', CONSOLE_MESSAGES.linkSpent);
      const operator = await trx
        .selectFrom('operators')
        .select('email')
        .where('id', '=', spentBy)
        .executeTakeFirstOrThrow();
      const csrf = await openSession(c, trx, spentBy, { ...sessionOptions(), now, trustProxy: config.TRUST_PROXY });
      return { operatorId: spentBy, email: operator.email, csrfToken: csrf };
    });
    return c.json(await sessionAnswer(operatorId, email, csrfToken));
  });

  app.get('/me', async (c) => {
    const { operatorId, email, csrfToken } = c.var.session;
    return c.json(await sessionAnswer(operatorId, email, csrfToken));
  });

  app.post('/sign_out', async (c) => {
    await endSessions(c, db, c.var.session, { now: clock.now(), everywhere: false });
    return c.json({ message: 'You are signed out.' });
  });

  app.post('/sign_out_everywhere', async (c) => {
    await endSessions(c, db, c.var.session, { now: clock.now(), everywhere: true });
    return c.json({ message: 'You are signed out on every device.' });
  });

  const staffRows = (storeId: number, on: Kysely<Database> = db) =>
    on
      .selectFrom('store_operators as so')
      .innerJoin('operators as o', 'o.id', 'so.operator_id')
      .select(['o.id', 'o.email', 'so.role'])
      .where('so.store_id', '=', storeId);

  app.get('/stores/:slug/staff', async (c) => {
    const rows = await staffRows(c.var.consoleStore.id).orderBy('o.email').execute();
    return c.json({ data: rows.map((row) => staffAnswer(row, c.var.session.operatorId)) });
  });

  app.post('/stores/:slug/staff', async (c) => {
    const { email, role } = await readJson(c, inviteOperatorPayload);
    const store = c.var.consoleStore;
    const { session } = c.var;
    const now = clock.now();
    const member = await db.transaction().execute(async (trx) => {
      const operatorId = await ensureOperator(trx, email);
      const added = await trx
        .insertInto('store_operators')
        .values({ store_id: store.id, operator_id: operatorId, role })
        .onConflict((oc) => oc.columns(['store_id', 'operator_id']).doNothing())
        .returning('operator_id')
        .executeTakeFirst();
      if (!added) throw conflict(CONSOLE_MESSAGES.alreadyStaff);
      await recordAudit(trx, {
        storeId: store.id,
        operatorId: session.operatorId,
        actor: session.email,
        action: 'staff.invite',
        entity: 'operator',
        entityId: String(operatorId),
        before: null,
        after: { email, role },
        at: now,
      });
      await mailSignInLink(
        trx,
        operatorId,
        {
          to: email,
          subject: `You are invited to run ${store.title}`,
          intro: `${session.email} invited you to the console of ${store.title} as ${role === 'owner' ? 'an owner' : 'an editor'}. Open this link to sign in:`,
        },
        { siteUrl: config.PUBLIC_SITE_URL, mailFrom: config.MAIL_FROM, now },
      );
      return { id: operatorId, email, role };
    });
    deps.mail.wake();
    return c.json({ data: staffAnswer(member, session.operatorId) }, 201);
  });

  /**
   * Changes or removes one staff member's role in one transaction, the store's owners locked first so
   * two owners demoting each other at once cannot leave the store without one.
   */
  async function changeStaff(c: Context<ConsoleEnv>, role: OperatorRole | null) {
    const store = c.var.consoleStore;
    const { session } = c.var;
    const operatorId = intId(c.req.param('id'));
    const now = clock.now();
    return db.transaction().execute(async (trx) => {
      const owners = await trx
        .selectFrom('store_operators')
        .select('operator_id')
        .where('store_id', '=', store.id)
        .where('role', '=', 'owner')
        .forUpdate()
        .execute();
      const before = await staffRows(store.id, trx).where('o.id', '=', operatorId).executeTakeFirst();
      if (!before) throw notFound();
      if (before.role === 'owner' && role !== 'owner' && owners.length <= 1) throw conflict(CONSOLE_MESSAGES.lastOwner);
      if (role) {
        await trx
          .updateTable('store_operators')
          .set({ role })
          .where('store_id', '=', store.id)
          .where('operator_id', '=', operatorId)
          .execute();
      } else {
        await trx
          .deleteFrom('store_operators')
          .where('store_id', '=', store.id)
          .where('operator_id', '=', operatorId)
          .execute();
      }
      await recordAudit(trx, {
        storeId: store.id,
        operatorId: session.operatorId,
        actor: session.email,
        action: role ? 'staff.change_role' : 'staff.remove',
        entity: 'operator',
        entityId: String(operatorId),
        before: { email: before.email, role: before.role },
        after: role ? { email: before.email, role } : null,
        at: now,
      });
      return { id: before.id, email: before.email, role: role ?? before.role };
    });
  }

  app.patch('/stores/:slug/staff/:id', async (c) => {
    const { role } = await readJson(c, changeRolePayload);
    const member = await changeStaff(c, role);
    return c.json({ data: staffAnswer(member, c.var.session.operatorId) });
  });

  app.delete('/stores/:slug/staff/:id', async (c) => {
    await changeStaff(c, null);
    return c.json({ message: 'Removed from the store’s staff.' });
  });

  app.get('/stores/:slug/audit', async (c) => {
    const { page } = readQuery(c, auditQuery);
    const storeId = c.var.consoleStore.id;
    const [rows, total] = await Promise.all([
      db
        .selectFrom('audit_log')
        .select([sql<string>`id::text`.as('id'), 'actor', 'action', 'entity', 'entity_id', 'before', 'after', 'at'])
        .where('store_id', '=', storeId)
        // Qualified: a bare `id` would sort by the text column answered under that name ("9" after "10").
        .orderBy('audit_log.id', 'desc')
        .limit(AUDIT_PAGE_SIZE)
        .offset((page - 1) * AUDIT_PAGE_SIZE)
        .execute(),
      db
        .selectFrom('audit_log')
        .select(sql<number>`count(*)::int`.as('total'))
        .where('store_id', '=', storeId)
        .executeTakeFirstOrThrow(),
    ]);
    const data: AuditEntry[] = rows.map((row) => ({ ...row, at: row.at.toISOString() }));
    return c.json({ data, meta: { total: total.total, page, perPage: AUDIT_PAGE_SIZE } });
  });

  // Catalog and gift cards: owners and editors (docs/decisions/199-console-catalog-and-gift-cards.md).
  // A catalog change made here publishes by itself after the store's quiet period, when it chose so
  // (docs/decisions/208-preview-and-live-build.md).
  const catalogWrite = async (c: Context<ConsoleEnv>, next: () => Promise<void>) => {
    await next();
    if (WRITES.has(c.req.method) && c.res.status < 300) await catalogChanged(db, c.var.consoleStore.id, clock.now());
  };
  app.use('/stores/:slug/products', catalogWrite);
  app.use('/stores/:slug/products/*', catalogWrite);
  app.route('/stores/:slug/products/:id/images', consoleImageRoutes(deps));
  app.route('/stores/:slug/products/:id/variants', consoleVariantRoutes(deps));
  app.route('/stores/:slug/products', consoleProductLifecycleRoutes(deps));
  app.route('/stores/:slug/products', consoleProductRoutes(deps));
  // Collections and bundles (docs/decisions/206-console-collections-and-bundles.md).
  app.route('/stores/:slug/collections', consoleCollectionRoutes(deps));
  app.route('/stores/:slug/bundles', consoleBundleRoutes(deps));
  app.route('/stores/:slug/gift_cards', consoleGiftCardRoutes(deps));
  app.route('/stores/:slug/orders', consoleOrderRoutes(deps));
  app.route('/stores/:slug/settings', consoleSettingsRoutes(deps));
  app.route('/stores/:slug/recipients', consoleRecipientRoutes(deps));
  app.route('/stores/:slug/domain_tokens', consoleDomainTokenRoutes(deps));
  // Publishing: owners and editors, or the bearer token (docs/decisions/202-publishing-builds.md).
  app.route('/', publishingRoutes(deps));

  return app;
}
