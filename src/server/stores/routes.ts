import { Hono } from 'hono';
import { customDomainQuery, verifyPayload } from '../../lib/contract/payloads.ts';
import { policyKind } from '../../lib/contract/answers.ts';
import { listCollections } from '../catalog/queries.ts';
import { reshapePolicy, reshapeStore } from '../catalog/reshape.ts';
import { notFound } from '../http/errors.ts';
import type { StoreRow } from '../db/schema.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { assertAccess, findStoreByDomain, hasAllowedLists } from '../http/store-access.ts';
import { clientAddress, enforceLimits } from '../http/rate-limit.ts';
import { readJson, readQuery } from '../http/validation.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { accessLink, askedOnOwnDomain } from './access-links.ts';

/** Same words whether or not the address is listed: the answer must not reveal the list. */
const VERIFY_ANSWER = { message: 'If this email address is on the list, a sign-in link is on its way.' };

/** Store info, custom-domain lookup and the allowed-users sign-in link (spec §7). */
export function storeRoutes(deps: AppDeps) {
  const { db, clock, config, rateLimits, stores } = deps;
  const app = new Hono<AppEnv>();

  /** Store info of a store the shopper may see: its settings and its collections' names. */
  const storeInfo = async (store: StoreRow) => {
    const [lists, collections] = await Promise.all([hasAllowedLists(db, store), listCollections(db, store.id)]);
    return reshapeStore(store, lists, collections);
  };

  app.get('/', async (c) => {
    const { custom_domain } = readQuery(c, customDomainQuery);
    const store = await findStoreByDomain(db, custom_domain, stores);
    await assertAccess(db, store, (name) => c.req.header(name), clock);
    return c.json(await storeInfo(store));
  });

  app.get('/:slug', async (c) => {
    return c.json(await storeInfo(c.var.store));
  });

  app.get('/:slug/policies/:kind', (c) => {
    const kind = policyKind.safeParse(c.req.param('kind'));
    const body = kind.success ? c.var.store.policies[kind.data] : undefined;
    if (!kind.success || !body) throw notFound();
    return c.json(reshapePolicy(kind.data, body));
  });

  app.post('/:slug/allowed_users/verify', async (c) => {
    const store = c.var.store;
    const body = await readJson(c, verifyPayload);
    await enforceLimits(
      rateLimits,
      [
        { key: `verify:client:${clientAddress(c, config.TRUST_PROXY)}`, max: config.RATE_LIMIT_VERIFY_PER_CLIENT },
        { key: `verify:email:${store.id}:${body.email}`, max: config.RATE_LIMIT_VERIFY_PER_EMAIL },
      ],
      config.RATE_LIMIT_WINDOW_SECONDS,
      clock.now(),
    );
    const recipient = await db
      .selectFrom('allowed_recipients')
      .select(['id', 'email'])
      .where('store_id', '=', store.id)
      .where('email', '=', body.email)
      .executeTakeFirst();
    if (recipient) {
      // The emailed link opens the store on its own domain when asked from there, else under `/{slug}` on the site.
      const onOwnDomain = askedOnOwnDomain(store, c.req.query('custom_domain'));
      const link = accessLink(store, onOwnDomain, config.PUBLIC_SITE_URL, { uuid: recipient.id });
      // The browser token and the mail that makes it usable are one change (ADR 100). Delivery is the
      // worker's: no SMTP round trip in this answer, so a listed address answers about as fast as an unlisted one.
      await db.transaction().execute(async (trx) => {
        if (body.browser_token) {
          await trx
            .insertInto('browser_tokens')
            .values({ store_id: store.id, token: body.browser_token, recipient_id: recipient.id, verified_at: null })
            .onConflict((oc) => oc.columns(['store_id', 'token']).doNothing())
            .execute();
        }
        await enqueueMail(
          trx,
          {
            kind: 'sign_in_link',
            dedupeKey: null,
            to: recipient.email,
            subject: `Your sign-in link for ${store.title}`,
            text: `Open this link to enter ${store.title}:\n\n${link.href}\n\nIf you did not ask for it, ignore this message.`,
            html: null,
          },
          { mailFrom: config.MAIL_FROM, now: clock.now() },
        );
      });
      deps.mail.wake();
    }
    return c.json(VERIFY_ANSWER, 202);
  });

  return app;
}
