/**
 * Route rules in one place (spec §4 "Route rules may redirect, including to an external URL by
 * full page load"; spec §5 "Route meta may carry a validate check").
 *
 * Patterns use Astro's route syntax relative to the store (`/product/[id]`); the middleware matches
 * them against the store-relative path, so one rule serves prefixed and custom-domain URLs.
 */
import { POLICY_KINDS } from './contract/answers.ts';
import { pageNotFoundValidate } from './error-catalogue.ts';
import { isCollectionHandle } from './slug.ts';

export type RedirectRule = {
  /** Store-relative path, exact match, e.g. '/products'. */
  from: string;
  /** Store-relative path (kept under the store's link base) or an absolute http(s) URL (full page load). */
  to: string;
  status: 301 | 302 | 307 | 308;
};

export type ValidateRule = {
  /** Store-relative route pattern, e.g. '/product/[id]'. */
  pattern: string;
  validate: (params: Record<string, string | undefined>) => boolean;
  /** Default 404 (spec §5). */
  status?: number;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RESOURCE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const REDIRECT_RULES: readonly RedirectRule[] = [
  // Old listing and bundle URLs that shared links still use.
  { from: '/products', to: '/shop', status: 301 },
  { from: '/bundles', to: '/shop', status: 301 },
  { from: '/product', to: '/shop', status: 302 },
  { from: '/product-bundle', to: '/shop', status: 302 },
  { from: '/policies', to: '/', status: 302 },
  { from: '/collections', to: '/shop', status: 302 },
  // Card payments go through Stripe (or its test stand-in): its privacy policy is Stripe's own page.
  { from: '/payment-privacy', to: 'https://stripe.com/privacy', status: 302 },
];

export const VALIDATE_RULES: readonly ValidateRule[] = [
  { pattern: '/product/[id]', validate: (p) => RESOURCE_ID.test(p.id ?? '') },
  { pattern: '/product-bundle/[id]', validate: (p) => RESOURCE_ID.test(p.id ?? '') },
  { pattern: '/order/[id]', validate: (p) => UUID.test(p.id ?? '') },
  { pattern: '/order-confirmation/[id]', validate: (p) => UUID.test(p.id ?? '') },
  { pattern: '/collections/[handle]', validate: (p) => isCollectionHandle(p.handle) },
  { pattern: '/policies/[kind]', validate: (p) => (POLICY_KINDS as readonly string[]).includes(p.kind ?? '') },
];

/** True when a redirect target leaves the site (a full page load to another origin). */
export function isExternal(to: string): boolean {
  return /^https?:\/\//i.test(to);
}

/** The redirect rule for a store-relative path, if any. */
export function findRedirect(
  storePath: string,
  rules: readonly RedirectRule[] = REDIRECT_RULES,
): RedirectRule | undefined {
  const normalized = storePath.length > 1 ? storePath.replace(/\/+$/, '') : storePath;
  return rules.find((rule) => rule.from === normalized);
}

/** Runs the validate check of a route; a failure is `{ status, message: 'Page Not Found: {path}' }`. */
export function validateRoute(
  storePattern: string,
  params: Record<string, string | undefined>,
  fullPath: string,
  rules: readonly ValidateRule[] = VALIDATE_RULES,
): { status: number; message: string } | null {
  const rule = rules.find((r) => r.pattern === storePattern);
  if (!rule || rule.validate(params)) return null;
  return { status: rule.status ?? 404, message: pageNotFoundValidate(fullPath) };
}
