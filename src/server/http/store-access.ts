import { sql, type Kysely } from 'kysely';
import { createMiddleware } from 'hono/factory';
import { SHOPPER_TOKEN } from '../../lib/contract/shopper-tokens.ts';
import { normalizeHost } from '../../lib/custom-domain.ts';
import { isSlug } from '../../lib/slug.ts';
import type { Database, StoreRow } from '../db/schema.ts';
import type { AppEnv, Clock } from './context.ts';
import { notFound, restricted } from './errors.ts';
import { isUuid } from './validation.ts';

const TOKEN = /^[\x21-\x7e]{1,200}$/;

/**
 * Whether a store row's allowed lists hold anything, read in the same query as the row (one round trip
 * instead of three per call). Keyed by the row object, so it lives exactly as long as the request's row.
 */
const listsPresent = new WeakMap<StoreRow, boolean>();

/** The store row plus `exists(…)` over both allowed lists; the flag goes to `listsPresent`, not the row. */
async function selectStore(
  db: Kysely<Database>,
  column: 'slug' | 'custom_domain',
  value: string,
): Promise<StoreRow | undefined> {
  const found = await db
    .selectFrom('stores')
    .selectAll('stores')
    .select(
      sql<boolean>`(exists (select 1 from allowed_recipients r where r.store_id = stores.id) or exists (select 1 from allowed_domain_tokens t where t.store_id = stores.id))`.as(
        'allowed_lists_present',
      ),
    )
    .where(column, '=', value)
    .executeTakeFirst();
  if (!found) return undefined;
  const { allowed_lists_present, ...store } = found;
  // Shared by every request that gets it from the cache: nobody may change it.
  Object.freeze(store);
  listsPresent.set(store, allowed_lists_present);
  return store;
}

/**
 * Store rows by slug and by custom domain, kept for a second: every API call names its store, and
 * reading the same row for each was one database round trip of two on `GET …/cart`. A store's settings
 * change rarely and by an operator; every instance sees a change within the TTL (docs/decisions/070).
 * Unknown stores are not kept, so a new store is found at once.
 */
export class StoreCache {
  readonly #entries = new Map<string, { store: StoreRow; expiresAt: number }>();
  readonly #ttlMs: number;
  readonly #clock: Clock;
  readonly #maxEntries: number;

  constructor(ttlMs: number, clock: Clock, maxEntries = 1000) {
    this.#ttlMs = ttlMs;
    this.#clock = clock;
    this.#maxEntries = maxEntries;
  }

  async find(db: Kysely<Database>, column: 'slug' | 'custom_domain', value: string): Promise<StoreRow | undefined> {
    if (this.#ttlMs <= 0) return selectStore(db, column, value);
    const key = `${column}:${value}`;
    const now = this.#clock.now().getTime();
    const kept = this.#entries.get(key);
    if (kept && kept.expiresAt > now) return kept.store;
    const store = await selectStore(db, column, value);
    this.#entries.delete(key);
    if (store) {
      if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(key, { store, expiresAt: now + this.#ttlMs });
    }
    return store;
  }

  /** Forgets every row (this process changed stores, e.g. an import). */
  clear(): void {
    this.#entries.clear();
  }
}

/** No caching: each lookup reads the database. */
const uncached = new StoreCache(0, { now: () => new Date() });

export async function findStoreBySlug(
  db: Kysely<Database>,
  slug: string | undefined,
  cache: StoreCache = uncached,
): Promise<StoreRow> {
  if (!slug || !isSlug(slug)) throw notFound();
  const store = await cache.find(db, 'slug', slug);
  if (!store) throw notFound();
  return store;
}

/** Whether the store has allowed recipients or domain tokens; free when the row came from `findStoreBy…`. */
export async function hasAllowedLists(db: Kysely<Database>, store: StoreRow): Promise<boolean> {
  const known = listsPresent.get(store);
  if (known !== undefined) return known;
  const storeId = store.id;
  const [recipient, token] = await Promise.all([
    db.selectFrom('allowed_recipients').select('id').where('store_id', '=', storeId).limit(1).executeTakeFirst(),
    db.selectFrom('allowed_domain_tokens').select('token').where('store_id', '=', storeId).limit(1).executeTakeFirst(),
  ]);
  return recipient !== undefined || token !== undefined;
}

/**
 * Whether the request may see a restricted store: a listed recipient's uuid, one of the store's
 * domain tokens, or a browser token verified earlier. A request carrying both a valid recipient
 * token and a pending browser token verifies that browser token.
 */
export async function canAccess(
  db: Kysely<Database>,
  store: StoreRow,
  headers: (name: string) => string | undefined,
  clock: Clock,
): Promise<boolean> {
  if (!store.restricted) return true;
  const recipientToken = headers(SHOPPER_TOKEN.allowedRecipientToken)?.trim();
  const domainToken = headers(SHOPPER_TOKEN.allowedDomainToken)?.trim();
  const browserToken = headers(SHOPPER_TOKEN.browserToken)?.trim();

  if (recipientToken && isUuid(recipientToken)) {
    const recipient = await db
      .selectFrom('allowed_recipients')
      .select('id')
      .where('store_id', '=', store.id)
      .where('id', '=', recipientToken.toLowerCase())
      .executeTakeFirst();
    if (recipient) {
      if (browserToken && TOKEN.test(browserToken)) {
        await db
          .updateTable('browser_tokens')
          .set({ verified_at: clock.now() })
          .where('store_id', '=', store.id)
          .where('token', '=', browserToken)
          .where('recipient_id', '=', recipient.id)
          .where('verified_at', 'is', null)
          .execute();
      }
      return true;
    }
  }
  if (domainToken && TOKEN.test(domainToken)) {
    const token = await db
      .selectFrom('allowed_domain_tokens')
      .select('token')
      .where('store_id', '=', store.id)
      .where('token', '=', domainToken)
      .executeTakeFirst();
    if (token) return true;
  }
  if (browserToken && TOKEN.test(browserToken)) {
    const verified = await db
      .selectFrom('browser_tokens')
      .select('token')
      .where('store_id', '=', store.id)
      .where('token', '=', browserToken)
      .where('verified_at', 'is not', null)
      .executeTakeFirst();
    if (verified) return true;
  }
  return false;
}

export async function assertAccess(
  db: Kysely<Database>,
  store: StoreRow,
  headers: (name: string) => string | undefined,
  clock: Clock,
): Promise<void> {
  if (!(await canAccess(db, store, headers, clock))) throw restricted(store);
}

// The verify call is how a shopper asks for access, so it cannot require access itself.
const OPEN_PATHS = /\/allowed_users\/verify\/?$/;

export async function findStoreByDomain(
  db: Kysely<Database>,
  domain: string,
  cache: StoreCache = uncached,
): Promise<StoreRow> {
  // A host may arrive with a trailing dot or a port ('members.vip.test.'); stored domains have neither.
  const host = normalizeHost(domain);
  if (!host || host.length > 253) throw notFound();
  const store = await cache.find(db, 'custom_domain', host);
  if (!store) throw notFound();
  return store;
}

/**
 * Loads the store named by :slug into c.var.store and refuses restricted stores without a valid token.
 * On a custom host the verify call names its store by `?custom_domain=` (spec §7): a shopper turned
 * away there has no slug to put in the path.
 */
export function storeContext(db: Kysely<Database>, clock: Clock, stores: StoreCache = uncached) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const isOpen = OPEN_PATHS.test(c.req.path);
    const domain = isOpen ? c.req.query('custom_domain') : undefined;
    const store = domain
      ? await findStoreByDomain(db, domain, stores)
      : await findStoreBySlug(db, c.req.param('slug'), stores);
    if (!isOpen) await assertAccess(db, store, (name) => c.req.header(name), clock);
    c.set('store', store);
    await next();
  });
}
