/**
 * A store's settings as the catalog import and the console's settings form both accept them
 * (docs/decisions/203-console-store-settings.md): one set of rules, so the console can store nothing the
 * import would refuse, and the reverse. The import adds its defaults (src/server/catalog/catalog-format.ts);
 * the console's form sends every field.
 */
import { z } from 'zod';
import { ALL_COUNTRIES } from '../country-data.ts';
import { regionValue, regionsOf } from '../countries.ts';
import { isCustomDomain, normalizeHost } from '../custom-domain.ts';
import { decimalToCents } from '../money.ts';
import { isSitePath, isWebUrl } from '../site-urls.ts';
import { POLICY_KINDS } from './answers.ts';

/** Money in a catalog file or the settings form: a decimal string with at most two places, like the API ("12.50"). */
export const catalogMoney = z
  .string()
  .regex(/^\d{1,7}(\.\d{1,2})?$/, 'must be a decimal amount like "12.50"')
  .transform((v) => decimalToCents(v));

/**
 * An image or favicon: a path of this site ('/images/…', a restricted store's '/{slug}/media/…') or an
 * http(s) URL. Pages put it in `src`/`href` as is, so `javascript:`, `data:` and other schemes never get in.
 */
export const assetUrl = z
  .string()
  .min(1)
  .max(500)
  .refine((url) => isSitePath(url) || isWebUrl(url), 'must be an http(s) URL or a path of this site');

const RATE_MESSAGE = 'must be a rate from 0 to 10000 basis points (0 to 100 %)';
/** A tax rate in basis points: 825 is 8.25 %. */
const rateBps = z.number({ error: RATE_MESSAGE }).int(RATE_MESSAGE).min(0, RATE_MESSAGE).max(10_000, RATE_MESSAGE);

const THRESHOLD_MESSAGE = 'must be a whole number from 0 to 1000000';

/** A country as addresses carry it: an ISO 3166-1 code of the address dataset, any case. */
export const countryCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine((code) => ALL_COUNTRIES.some((c) => c.countryShortCode === code), 'must be a two-letter country code');

/**
 * Tax by destination: a country's rate (no `region`) or one state's / province's, named by the code the
 * address form stores ("CA", "ON"). Each country and region once.
 */
const taxRates = z
  .array(
    z
      .object({
        country: countryCode,
        region: z.string().trim().toUpperCase().min(1).max(40).nullable().default(null),
        rate_bps: rateBps,
      })
      .refine(
        (rate) =>
          rate.region === null ||
          regionsOf(ALL_COUNTRIES, rate.country).some((r) => regionValue(r).toUpperCase() === rate.region),
        { message: "must be a region code of the country's addresses", path: ['region'] },
      ),
  )
  .max(1_000)
  .refine(
    (rates) => new Set(rates.map((r) => `${r.country}/${r.region ?? ''}`)).size === rates.length,
    'each country and region may have one rate',
  );

/** Shipping by destination: the first zone listing the country, else the one listing `*`, else the store's own rate. */
const shippingZones = z
  .array(
    z.object({
      name: z.string().trim().min(1, 'is required').max(100),
      countries: z
        .array(z.union([z.literal('*'), countryCode], { error: 'must be * or a two-letter country code' }))
        .min(1, 'must list at least one country (or *)')
        .max(300),
      rate: catalogMoney,
      free_shipping_threshold: catalogMoney.nullable().default(null),
    }),
  )
  .max(100)
  .refine((zones) => {
    const listed = zones.flatMap((zone) => zone.countries);
    return new Set(listed).size === listed.length;
  }, 'a country (or *) may be in one zone only');

/**
 * The store's settings field by field, without defaults. `custom_domain` is stored as hosts are looked up
 * (lower-case, no trailing dot) and must be a host the storefront would route to a store (spec §5).
 */
export const storeSettingsFields = {
  title: z.string().trim().min(1, 'is required').max(200),
  favicon_url: assetUrl.nullable(),
  custom_domain: z
    .string()
    .max(253)
    .transform(normalizeHost)
    .refine((host) => isCustomDomain(host, {}), 'must be a host name of three or more labels, like shop.example.com')
    .nullable(),
  tax_rate_bps: rateBps,
  shipping_flat: catalogMoney,
  free_shipping_threshold: catalogMoney.nullable(),
  tax_rates: taxRates,
  shipping_zones: shippingZones,
  /** The store's policy pages, HTML sanitised as descriptions are; each one given gets a page and a footer link. */
  policies: z.partialRecord(z.enum(POLICY_KINDS), z.string().trim().min(1).max(50_000)),
  contact_email: z.email('must be an email address').max(254, 'must be an email address').nullable(),
  /** The product page says "Only N left" at or below this stock; 0 never. */
  low_stock_threshold: z
    .number({ error: THRESHOLD_MESSAGE })
    .int(THRESHOLD_MESSAGE)
    .min(0, THRESHOLD_MESSAGE)
    .max(1_000_000, THRESHOLD_MESSAGE),
};
