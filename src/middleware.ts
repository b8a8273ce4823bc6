/**
 * Store loading for on-demand pages (spec §4): resolves the store of a request with the same pure
 * decision the client boot script uses, applies route rules, and answers redirects with cookies.
 */
import { defineMiddleware, sequence } from 'astro:middleware';
import { createRequester, getStore, getStoreByDomain, internalApiBaseUrl } from './lib/api-client/index.ts';
import type { RenderApi } from './lib/page-data/request-api.ts';
import { headerCookieJar, serializeCookie, type CookieSpec } from './lib/cookies.ts';
import { crawlerErrorResponse } from './lib/crawler.ts';
import { findRedirect, isExternal, validateRoute } from './lib/route-rules.ts';
import {
  decideStoreLoading,
  fetchOutcome,
  isStorelessPath,
  namesNoStore,
  slugFromPath,
  type FetchOutcome,
  type StoreLookup,
} from './lib/store-loading.ts';
import { storeHref } from './lib/store-links.ts';
import { reportError } from './lib/report.ts';

const STORE_FETCH_TIMEOUT_MS = 5000;

function redirect(location: string, status: number, cookies: CookieSpec[], secure: boolean): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' });
  for (const cookie of cookies) headers.append('set-cookie', serializeCookie(cookie, { secure }));
  return new Response(null, { status, headers });
}

async function fetchStore(
  renderApi: RenderApi,
  lookup: StoreLookup,
  cookieHeader: string | null,
): Promise<FetchOutcome> {
  const request = createRequester({
    baseUrl: renderApi.baseUrl,
    cookies: headerCookieJar(cookieHeader),
    fetch: (input, init) => renderApi.fetch(input, { ...init, signal: AbortSignal.timeout(STORE_FETCH_TIMEOUT_MS) }),
  });
  return fetchOutcome(
    () => (lookup.by === 'slug' ? getStore(request, lookup.slug) : getStoreByDomain(request, lookup.domain)),
    (error) => reportError('Store fetch got no answer', error),
  );
}

/**
 * Spec §2: a crawler gets no error page, the error is only logged. Applied here, around every
 * page, so no error path can miss it (unknown routes and orders, route rules, store pages, the
 * 500 page); pages say what went wrong in `locals.pageError` for the log line.
 */
const crawlerErrors = defineMiddleware(async ({ request, url, locals }, next) => {
  const response = await next();
  // A rewrite (to /404) runs the chain again inside this one: answer once.
  if (response.status < 400 || locals.crawlerAnswered) return response;
  const answer = crawlerErrorResponse(
    request,
    response.status,
    locals.pageError?.message ?? `Error ${response.status}: ${url.pathname}`,
  );
  if (!answer) return response;
  locals.crawlerAnswered = true;
  await response.body?.cancel();
  return answer;
});

const storeLoading = defineMiddleware(async (context, next) => {
  const { request, url, locals, params, routePattern } = context;
  // The Node front hands these in (src/front/front-server.ts); `astro dev` has no front, so the
  // types say what the front guarantees and these defaults cover the dev server.
  /* eslint-disable @typescript-eslint/no-unnecessary-condition */
  locals.customDomain ??= null;
  locals.prerender ??= false;
  locals.api ??= { baseUrl: internalApiBaseUrl(process.env), fetch: (input, init) => fetch(input, init) };
  locals.siteUrl ??= process.env.PUBLIC_SITE_URL;
  locals.publicEnv ??= process.env;
  /* eslint-enable @typescript-eslint/no-unnecessary-condition */
  const { customDomain, prerender } = locals;
  const secure = url.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
  locals.store = null;
  locals.linkBase = '';

  // The front maps a custom domain's `/shop` onto `/{slug}/shop` (the browser still shows `/shop`),
  // except entry links with access tokens, which it passes unmapped so cookies are stored first.
  // Every mapped path, store page or not (an old `/products` lands on the catch-all as
  // `/acme/products`), starts with the slug the front put there.
  const hasAccessQuery = url.searchParams.has('uuid') || url.searchParams.has('token');
  const routeSlug = routePattern.startsWith('/[store]') ? params.store : undefined;
  const domainSlug = customDomain && !hasAccessQuery ? url.pathname.split('/')[1] : undefined;
  const browserPath = domainSlug ? url.pathname.slice(domainSlug.length + 1) || '/' : url.pathname;

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
  const noStore = !customDomain && namesNoStore(url.pathname);
  if (!routeSlug && !noStore && !(customDomain && hasAccessQuery)) return next();

  const failure = routeSlug ? validateRoute(routePattern.slice('/[store]'.length) || '/', params, browserPath) : null;
  if (failure) {
    locals.pageError = failure;
    return next('/404');
  }

  const input = { path: browserPath, search: prerender ? '' : url.search, customDomain };
  let decision = decideStoreLoading(input);
  if (decision.kind === 'fetch') {
    // On a custom domain the front fetched the store already: one call per request.
    const outcome =
      locals.storeOutcome ??
      (await fetchStore(locals.api, decision.lookup, prerender ? null : request.headers.get('cookie')));
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
        for (const cookie of decision.cookies)
          response.headers.append('set-cookie', serializeCookie(cookie, { secure }));
      }
      // A restricted store's pages are per shopper: never in a shared cache.
      if (decision.store.allowedListsPresent) response.headers.set('cache-control', 'private, no-store');
      return response;
    }
  }
});

export const onRequest = sequence(crawlerErrors, storeLoading);
