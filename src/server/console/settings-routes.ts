/**
 * A store's settings in the console (docs/decisions/203-console-store-settings.md): title, favicon, custom
 * domain, tax and shipping by destination, policy pages and contact, the low-stock threshold. Owners only.
 * One form, saved whole with the version it was opened at (`stores.settings_version`, bumped by trigger);
 * the rules are the catalog import's (store-settings.ts) and policies go through its sanitiser, so the
 * console and the import can store exactly the same things.
 */
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { POLICY_KINDS, type ConsoleStoreSettings } from '../../lib/contract/answers.ts';
import { storeSettingsPayload } from '../../lib/contract/payloads.ts';
import { isCustomDomain } from '../../lib/custom-domain.ts';
import { centsToDecimal } from '../../lib/money.ts';
import { sanitizeDescription } from '../catalog/import.ts';
import type { Database, StoreRow } from '../db/schema.ts';
import type { AppDeps } from '../http/context.ts';
import { conflict, invalidField, notFound } from '../http/errors.ts';
import { limitBody } from '../http/body-limit.ts';
import { readJson } from '../http/validation.ts';
import { mediaUrl, parseMediaUrl } from '../media/media-folder.ts';
import type { MediaStorage } from '../media/media-storage.ts';
import { MULTIPART_OVERHEAD, readUpload, withStagedMedia } from '../media/image-upload.ts';
import { checkUploadedImage, IMAGE_MESSAGES } from '../media/uploaded-image.ts';
import { auditChange } from './audit-change.ts';
import type { ConsoleEnv } from './routes.ts';

export const SETTINGS_MESSAGES = {
  stale:
    'Someone else changed these settings after you opened them. Reload the page to see their changes, then make yours again.',
  domainTaken: 'This domain is already used by another store.',
  noFile: 'Choose an image file for the favicon (PNG, JPEG, WebP or AVIF).',
  notSquare: (width: number, height: number) => `A favicon must be square; this image is ${width} × ${height} pixels.`,
  siteDomain: 'This domain is the site’s own (or its hosting platform’s); use a domain of the store’s own.',
} as const;

/** The settings routes: the API's 64 KB body limit leaves them to this module's own. */
export const SETTINGS_PATHS = /^\/api\/admin\/stores\/[^/]+\/settings(?:\/favicon)?$/;

/**
 * The settings form's largest body: four policies of 50,000 characters (up to 3 bytes each in UTF-8), a
 * thousand tax rates and a hundred zones of 300 countries, with room to spare.
 */
const SETTINGS_MAX_BYTES = 1024 * 1024;

/** Browsers show favicons at 16 to 32 px (48 on some desktops); smaller is not a picture. */
const FAVICON = { minSide: 16, what: 'favicons' };
/** A favicon the console uploaded: its own name pattern, so replacing it can delete the file it leaves. */
const UPLOADED_FAVICON = /^favicon-[0-9a-f]{16}\.[a-z]+$/;

/** The unique constraint of migration 0001 on `stores.custom_domain`. */
const DOMAIN_CONSTRAINT = 'stores_custom_domain_key';

function settingsOf(row: StoreRow): ConsoleStoreSettings {
  return {
    version: row.settings_version,
    title: row.title,
    favicon_url: row.favicon_url,
    custom_domain: row.custom_domain,
    tax_rate_bps: row.tax_rate_bps,
    shipping_flat: centsToDecimal(row.shipping_flat_cents),
    free_shipping_threshold:
      row.free_shipping_threshold_cents === null ? null : centsToDecimal(row.free_shipping_threshold_cents),
    tax_rates: row.tax_rates.map((rate) => ({ country: rate.country, region: rate.region, rate_bps: rate.rate_bps })),
    shipping_zones: row.shipping_zones.map((zone) => ({
      name: zone.name,
      countries: zone.countries,
      rate: centsToDecimal(zone.rate_cents),
      free_shipping_threshold:
        zone.free_shipping_threshold_cents === null ? null : centsToDecimal(zone.free_shipping_threshold_cents),
    })),
    // In footer order (jsonb keeps its own).
    policies: Object.fromEntries(
      POLICY_KINDS.flatMap((kind) => (kind in row.policies ? [[kind, row.policies[kind]]] : [])),
    ),
    contact_email: row.contact_email,
    low_stock_threshold: row.low_stock_threshold,
  };
}

/** Only the settings a save changed, before and after: four policy texts would otherwise fill the log. */
function changedFields(before: ConsoleStoreSettings, after: ConsoleStoreSettings) {
  const changed = (Object.keys(after) as (keyof ConsoleStoreSettings)[]).filter(
    (key) => key !== 'version' && JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  const pick = (from: ConsoleStoreSettings) => Object.fromEntries(changed.map((key) => [key, from[key]]));
  return { before: pick(before), after: pick(after) };
}

const isDomainTaken = (error: unknown) =>
  (error as { code?: unknown }).code === '23505' &&
  (error as { constraint?: unknown }).constraint === DOMAIN_CONSTRAINT;

/**
 * The file of a favicon the console uploaded to this store that nothing shows any more (no store's favicon or
 * hero, no product image), to delete after the commit that let it go; null for anything else, such as a
 * catalog's own media, which re-importing the catalog would point at again.
 */
async function unusedFavicon(trx: Kysely<Database>, slug: string, url: string | null) {
  const file = url === null ? null : parseMediaUrl(url);
  if (url === null || file?.slug !== slug || !UPLOADED_FAVICON.test(file.name)) return null;
  const others = await trx
    .selectFrom('product_images')
    .select('id')
    .where('url', '=', url)
    .unionAll(
      trx
        .selectFrom('stores')
        .select('id')
        .where((eb) => eb.or([eb('hero_image_url', '=', url), eb('favicon_url', '=', url)])),
    )
    .limit(1)
    .execute();
  return others.length === 0 ? file : null;
}

const removeFile = (media: MediaStorage, file: { slug: string; name: string } | null) =>
  file ? media.remove(file.slug, file.name) : Promise.resolve();

async function storeRow(db: Kysely<Database>, storeId: number, lock: boolean): Promise<StoreRow | undefined> {
  const query = db.selectFrom('stores').selectAll().where('id', '=', storeId);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

/** `…/stores/{slug}/settings` of the console API. */
export function consoleSettingsRoutes({ db, clock, config, stores, media }: AppDeps) {
  const app = new Hono<ConsoleEnv>();
  const domains = { platformDomain: config.PLATFORM_DOMAIN, shopDomain: config.SHOP_DOMAIN };
  const maxUploadBytes = Math.floor(config.MEDIA_MAX_UPLOAD_MB * 1024 * 1024);
  const tooLarge = IMAGE_MESSAGES.tooLarge(config.MEDIA_MAX_UPLOAD_MB);

  app.get('/', async (c) => {
    const row = await storeRow(db, c.var.consoleStore.id, false);
    if (!row) throw notFound();
    return c.json({ data: settingsOf(row) });
  });

  app.put('/', limitBody(SETTINGS_MAX_BYTES), async (c) => {
    const edit = await readJson(c, storeSettingsPayload);
    if (edit.custom_domain !== null && !isCustomDomain(edit.custom_domain, domains))
      throw invalidField('custom_domain', SETTINGS_MESSAGES.siteDomain);
    const storeId = c.var.consoleStore.id;
    const now = clock.now();
    let saved: { row: StoreRow; unused: { slug: string; name: string } | null };
    try {
      saved = await db.transaction().execute(async (trx) => {
        // Locked first: of two saves made from one version, the second waits here, then sees the new one.
        const locked = await storeRow(trx, storeId, true);
        if (!locked) throw notFound();
        if (locked.settings_version !== edit.version) throw conflict(SETTINGS_MESSAGES.stale);
        if (edit.custom_domain !== null) {
          const other = await trx
            .selectFrom('stores')
            .select('id')
            .where('custom_domain', '=', edit.custom_domain)
            .where('id', '<>', storeId)
            .executeTakeFirst();
          if (other) throw conflict(SETTINGS_MESSAGES.domainTaken);
        }
        const after = await trx
          .updateTable('stores')
          .set({
            title: edit.title,
            favicon_url: edit.favicon_url,
            custom_domain: edit.custom_domain,
            tax_rate_bps: edit.tax_rate_bps,
            shipping_flat_cents: edit.shipping_flat,
            free_shipping_threshold_cents: edit.free_shipping_threshold,
            tax_rates: JSON.stringify(edit.tax_rates),
            // As the import stores them (import.ts): cents, by the names the cart's pricing reads.
            shipping_zones: JSON.stringify(
              edit.shipping_zones.map((zone) => ({
                name: zone.name,
                countries: zone.countries,
                rate_cents: zone.rate,
                free_shipping_threshold_cents: zone.free_shipping_threshold,
              })),
            ),
            policies: JSON.stringify(
              Object.fromEntries(
                Object.entries(edit.policies).map(([kind, html]) => [kind, sanitizeDescription(html)]),
              ),
            ),
            contact_email: edit.contact_email,
            low_stock_threshold: edit.low_stock_threshold,
          })
          .where('id', '=', storeId)
          .returningAll()
          .executeTakeFirstOrThrow();
        const change = changedFields(settingsOf(locked), settingsOf(after));
        if (Object.keys(change.after).length > 0)
          await auditChange(trx, c.var, now, {
            action: 'store.settings_update',
            entity: 'store',
            entityId: String(storeId),
            ...change,
          });
        const unused =
          after.favicon_url === locked.favicon_url ? null : await unusedFavicon(trx, after.slug, locked.favicon_url);
        return { row: after, unused };
      });
    } catch (error) {
      // Two stores claiming one domain at once: the second commit meets the unique constraint.
      if (isDomainTaken(error)) throw conflict(SETTINGS_MESSAGES.domainTaken);
      throw error;
    }
    // After the commit: a rolled-back save keeps its favicon's file.
    await removeFile(media, saved.unused);
    // This process answers with the new settings at once; other instances within the cache's second.
    stores.clear();
    return c.json({ data: settingsOf(saved.row) });
  });

  /**
   * A favicon upload, checked as product images are (docs/decisions/201-console-product-images.md) but
   * square and from 16 px, stored in the store's media folder, and made the store's favicon at once.
   */
  app.post('/favicon', limitBody(maxUploadBytes + MULTIPART_OVERHEAD, { message: tooLarge }), async (c) => {
    const store = c.var.consoleStore;
    const { bytes } = await readUpload(c, { noFile: SETTINGS_MESSAGES.noFile, maxBytes: maxUploadBytes, tooLarge });
    const checked = await checkUploadedImage(bytes, FAVICON);
    if ('refused' in checked) throw invalidField('file', checked.refused);
    if (checked.width !== checked.height)
      throw invalidField('file', SETTINGS_MESSAGES.notSquare(checked.width, checked.height));

    const name = `favicon-${randomBytes(8).toString('hex')}.${checked.extension}`;
    const url = mediaUrl(store.slug, name);
    const now = clock.now();
    const saved = await withStagedMedia(media, { slug: store.slug, name, data: checked.data }, (place) =>
      db.transaction().execute(async (trx) => {
        const locked = await storeRow(trx, store.id, true);
        if (!locked) throw notFound();
        const after = await trx
          .updateTable('stores')
          .set({ favicon_url: url })
          .where('id', '=', store.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await auditChange(trx, c.var, now, {
          action: 'store.favicon_upload',
          entity: 'store',
          entityId: String(store.id),
          before: { favicon_url: locked.favicon_url },
          after: { favicon_url: url, content_type: checked.type, width: checked.width, bytes: checked.bytes },
        });
        const unused = await unusedFavicon(trx, store.slug, locked.favicon_url);
        // Placed last in the transaction, as product images are (image-routes.ts).
        await place();
        return { row: after, unused };
      }),
    );
    await removeFile(media, saved.unused);
    stores.clear();
    return c.json({ data: settingsOf(saved.row) }, 201);
  });

  return app;
}
