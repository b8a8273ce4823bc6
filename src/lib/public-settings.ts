/**
 * Browser settings an operator sets where the server runs, rendered into every store page as
 * `<meta name content>` (docs/decisions/132-public-settings-at-run-time.md). Vite inlines
 * `import.meta.env.PUBLIC_*` when the site is built, so a setting given only to `npm start` would
 * otherwise never reach the browser.
 */

/** The `PUBLIC_*` settings the server reads when it runs, handed to pages in `locals.publicEnv`. */
export type PublicEnv = {
  PUBLIC_API_BASE_URL?: string | undefined;
  PUBLIC_GEOIP_URL?: string | undefined;
  PUBLIC_STRIPE_PUBLISHABLE_KEY?: string | undefined;
};

/** Meta name of the country-by-IP lookup URL (spec §7; `PUBLIC_GEOIP_URL`). */
export const GEOIP_URL_SETTING = 'geoip-url';

function httpUrl(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text || !URL.canParse(text)) return undefined;
  const { protocol } = new URL(text);
  return protocol === 'https:' || protocol === 'http:' ? text : undefined;
}

/** The settings to render, by meta name, from the server's environment (only absolute http(s) URLs). */
export function publicSettings(env: PublicEnv): Record<string, string> {
  const geoIpUrl = httpUrl(env.PUBLIC_GEOIP_URL);
  return geoIpUrl ? { [GEOIP_URL_SETTING]: geoIpUrl } : {};
}

/** A setting the page carries; undefined on the server or when the page has none. */
export function readPageSetting(name: string, doc?: Document): string | undefined {
  const page = doc ?? (typeof document === 'undefined' ? undefined : document);
  return page?.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || undefined;
}
