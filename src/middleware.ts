/**
 * Store loading for on-demand pages (spec §4): resolves the store of a request with the same pure
 * decision the client boot script uses, applies route rules, and answers redirects with cookies.
 */
import { defineMiddleware } from 'astro:middleware';
import { createApiClient, internalApiBaseUrl, isApiError } from './lib/api-client.ts';
import { headerCookieJar, serializeCookie, type CookieSpec } from './lib/cookies.ts';
import { findRedirect, isExternal, validateRoute } from './lib/route-rules.ts';
import { decideStoreLoading, isStorelessPath, slugFromPath, type FetchOutcome, type StoreLookup } from './lib/store-loading.ts';
import { storeHref } from './lib/store-links.ts';
import { reportError } from './lib/report.ts';

const STORE_FETCH_TIMEOUT_MS = 5000;

function redirect(location: string, status: number, cookies: CookieSpec[], secure: boolean): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' });
  for (const cookie of cookies) headers.append('set-cookie', serializeCookie(cookie, { secure }));
  return new Response(null, { status, headers });
}

async function fetchStore(lookup: StoreLookup, cookieHeader: string | null): Promise<FetchOutcome> {
  const api = createApiClient({
    baseUrl: internalApiBaseUrl(process.env),
    cookies: headerCookieJar(cookieHeader),
    fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(STORE_FETCH_TIMEOUT_MS) }),
  });
  try {
    const info = lookup.by === 'slug' ? await api.getStore(lookup.slug) : await api.getStoreByDomain(lookup.domain);
    return { kind: 'store', store: info.data.attributes };
  } catch (error) {
    if (isApiError(error)) return { kind: 'error', status: error.status, message: error.body?.message ?? null };
    reportError('Store fetch got no answer', error);
    return { kind: 'no-answer' };
  }
}

export const onRequest = defineMiddleware(async (context, next) => {
  const { request, url, locals, params, routePattern } = context;
  const prerender = request.headers.get('x-prerender') === '1';
  const customDomain = request.headers.get('x-store-domain') || null;
  const secure = url.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
  locals.store = null;
  locals.linkBase = '';
  locals.customDomain = customDomain;
  locals.prerender = prerender;

  // The front maps a custom domain's `/shop` onto `/{slug}/shop` (the browser still shows `/shop`),
  // except entry links with access tokens, which it passes unmapped so cookies are stored first.
  const hasAccessQuery = url.searchParams.has('uuid') || url.searchParams.has('token');
  const routeSlug = routePattern.startsWith('/[store]') ? params.store : undefined;
  const browserPath =
    customDomain && routeSlug && !hasAccessQuery && url.pathname.startsWith(`/${routeSlug}`)
      ? url.pathname.slice(routeSlug.length + 1) || '/'
      : url.pathname;

  if (isStorelessPath(url.pathname)) {
    // One page serves `/404` and `/{slug}/404` alike (spec §2): the prefixed form is rewritten onto it.
    const page = url.pathname.split('/').filter(Boolean).at(-1);
    return url.pathname === `/${page}` ? next() : next(`/${page}${url.search}`);
  }

  // Route rules work on the store-relative path so they hold for prefixed and custom-domain URLs.
  const pathSlug = customDomain ? null : slugFromPath(browserPath);
  const storePath = customDomain ? browserPath : browserPath.slice((pathSlug ?? '').length + 1) || '/';
  const linkBase = customDomain ? '' : pathSlug ? `/${pathSlug}` : '';
  const rule = findRedirect(storePath);
  if (rule) {
    const target = isExternal(rule.to) ? rule.to : storeHref(linkBase, rule.to) + url.search;
    return redirect(target, rule.status, [], secure);
  }

  // Unknown routes are answered by the catch-all page without loading a store (but an access
  // link on a custom domain is honoured whatever its path: the front passes it unmapped).
  // '/' and unprefixed store pages (/product/7) on a shared host name no store: the decision sends
  // them to /404 (spec §4 step 1).
  const namesNoStore = !customDomain && slugFromPath(url.pathname) === null;
  if (!routeSlug && !namesNoStore && !(customDomain && hasAccessQuery)) return next();

  const failure = routeSlug ? validateRoute(routePattern.slice('/[store]'.length) || '/', params, browserPath) : null;
  if (failure) {
    locals.pageError = failure;
    return next('/404');
  }

  const input = { path: browserPath, search: prerender ? '' : url.search, customDomain };
  let decision = decideStoreLoading(input);
  if (decision.kind === 'fetch') {
    const outcome = await fetchStore(decision.lookup, prerender ? null : request.headers.get('cookie'));
    decision = decideStoreLoading({ ...input, outcome });
  }

  switch (decision.kind) {
    case 'storeless':
    case 'fetch':
      return next();
    case 'redirect':
      if (decision.report) reportError(decision.report);
      return redirect(decision.location, 302, prerender ? [] : decision.cookies, secure);
    case 'render': {
      locals.store = decision.store;
      locals.linkBase = decision.linkBase;
      const response = await next();
      if (!prerender) {
        for (const cookie of decision.cookies) response.headers.append('set-cookie', serializeCookie(cookie, { secure }));
      }
      // A restricted store's pages are per shopper: never in a shared cache.
      if (decision.store.allowedListsPresent) response.headers.set('cache-control', 'private, no-store');
      return response;
    }
  }
});
