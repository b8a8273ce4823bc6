import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { isCustomDomain, type DomainConfig } from '../lib/custom-domain.ts';
import type { BuildPointer } from './build-pointer.ts';
import type { ApiMicrocache } from './api-microcache.ts';
import { compressHtmlAnswer } from './compress-response.ts';
import { CustomDomainRouter } from './custom-domain-router.ts';
import { sendEntry, type StaticEntry, type StaticFolder } from './static-files.ts';

/** Astro's handler in @astrojs/node middleware mode. */
export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void, locals?: object) => Promise<void>;

export type ApiFetch = (request: Request) => Response | Promise<Response>;

/** Header the snapshot build sends with the per-process secret; stripped from every other request. */
export const PRERENDER_HEADER = 'x-prerender';
/** Header telling Astro the request came on a store's own domain (links without prefix). */
export const STORE_DOMAIN_HEADER = 'x-store-domain';
/** Header telling Astro which build a render belongs to (the live one, or the snapshot being written). */
export const BUILD_ID_HEADER = 'x-build-id';

export interface FrontOptions {
  apiFetch: ApiFetch;
  astroHandler: AstroHandler;
  /** `dist/client`: Astro's hashed assets and `public/` files. */
  assets: StaticFolder;
  builds: BuildPointer;
  domains: DomainConfig;
  /** Only requests carrying this value in `x-prerender` are treated as snapshot renders. */
  prerenderSecret: string;
  /** Answers `POST /api/hooks/rebuild`; the front checks the token before calling it. */
  rebuild?: { token: string; run: (res: ServerResponse) => Promise<void> };
  /** Public catalog answers of the API kept for about a second (shoppers' calls only, not renders). */
  microcache?: ApiMicrocache;
}

/** The origin of an absolute URL setting (a cross-origin API base, a GeoIP service), else nothing. */
function originOf(value: string | undefined): string[] {
  if (!value || !URL.canParse(value)) return [];
  const { protocol, origin } = new URL(value);
  return protocol === 'https:' || protocol === 'http:' ? [origin] : [];
}

/**
 * Content-Security-Policy: our own origin, plus Stripe (Stripe.js, its API, its 3-D Secure and
 * Elements frames) and the operator-configured API/GeoIP origins — nothing else foreign. Astro
 * inlines its island runtime and small page scripts, whose hashes change with every build, so
 * script-src keeps 'unsafe-inline' here; with Astro's `security.csp` turned on (hashes in a
 * <meta> policy), the two policies intersect and inline scripts are limited to the hashed ones
 * (docs/reliability.md, "Content-Security-Policy"). object-src, base-uri, form-action and
 * frame-ancestors close the other injection routes.
 */
export function contentSecurityPolicy(env: Record<string, string | undefined> = process.env): string {
  const connect = ["'self'", 'https://api.stripe.com', 'https://m.stripe.network', 'https://q.stripe.com', ...originOf(env['PUBLIC_API_BASE_URL']), ...originOf(env['PUBLIC_GEOIP_URL'])];
  return [
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline' https://js.stripe.com",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https://*.stripe.com",
    "font-src 'self' data:",
    `connect-src ${[...new Set(connect)].join(' ')}`,
    'frame-src https://js.stripe.com https://hooks.stripe.com',
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** Headers every answer gets. */
const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/**
 * Headers that only mean something on a document (HTML, or SVG, which can carry script): the policy
 * is ≈ 900 bytes, which every script, stylesheet and image would otherwise carry for nothing.
 */
const DOCUMENT_HEADERS: Record<string, string> = {
  'x-frame-options': 'SAMEORIGIN',
  'content-security-policy': contentSecurityPolicy(),
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(self "https://js.stripe.com")',
  'cross-origin-opener-policy': 'same-origin-allow-popups',
};

function isDocumentType(contentType: string): boolean {
  return contentType.startsWith('text/html') || contentType.startsWith('image/svg+xml');
}

/** Paths answered from the snapshot build: store pages, their payloads and the build-id files. */
function isSnapshotCandidate(pathname: string, search: URLSearchParams): boolean {
  if (search.has('uuid') || search.has('token')) return false;
  // Query-driven variants (e.g. `/acme/shop?page=2`) render on demand; payloads ignore the build-hash query.
  return pathname.endsWith('/_payload.json') || [...search.keys()].length === 0;
}

/**
 * One `node:http` listener for the whole product: `/api/*` to Hono, snapshot pages and assets from disk,
 * custom domains mapped to their store, everything else to Astro (design.md, "One process, one port").
 */
export function createFrontListener(options: FrontOptions) {
  const { microcache } = options;
  const api = getRequestListener(microcache ? microcache.wrap(options.apiFetch) : options.apiFetch);
  const domainRouter = new CustomDomainRouter(async (request) => options.apiFetch(request));

  return async function frontListener(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // First, before any other work: a kept catalog answer is the cheapest request this server answers.
    if (microcache?.serve(req, res)) return;
    const isSnapshotRender = req.headers[PRERENDER_HEADER] === options.prerenderSecret;
    const snapshotBuildId = isSnapshotRender ? req.headers[BUILD_ID_HEADER] : undefined;
    for (const header of [PRERENDER_HEADER, STORE_DOMAIN_HEADER, BUILD_ID_HEADER]) delete req.headers[header];
    if (isSnapshotRender) req.headers[PRERENDER_HEADER] = '1';

    const url = new URL(req.url ?? '/', 'http://front');
    const { pathname, searchParams } = url;

    if (pathname === '/api/hooks/rebuild' && options.rebuild) {
      return handleRebuild(req, res, options.rebuild);
    }
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      await api(req, res);
      return;
    }

    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    const isRead = (req.method === 'GET' || req.method === 'HEAD') && !isSnapshotRender;
    const build = await options.builds.current();
    /** Astro's answers are documents (pages, redirects, sitemaps); Astro leaves them uncompressed. */
    const render = () => {
      for (const [name, value] of Object.entries(DOCUMENT_HEADERS)) res.setHeader(name, value);
      return compressHtmlAnswer(req, res, () => options.astroHandler(req, res));
    };
    const send = (entry: StaticEntry, path: string) => sendEntry(req, res, entry, path, isDocumentType(entry.type) ? DOCUMENT_HEADERS : {});
    const fromBuild = async (path: string): Promise<boolean> => {
      const page = isRead && build ? await build.lookup(path) : null;
      if (page) send(page, path);
      return Boolean(page);
    };

    if (isRead && pathname !== '/') {
      const asset = await options.assets.lookup(pathname);
      if (asset) return send(asset, pathname);
    }
    // The build-id files belong to the site, not to a store: every host polls the same ones.
    if (pathname.startsWith('/builds/') && (await fromBuild(pathname))) return;

    // Pages learn which build they belong to, so the build poller knows when they are outdated.
    const buildId = isSnapshotRender ? snapshotBuildId : options.builds.currentId;
    if (typeof buildId === 'string' && buildId) req.headers[BUILD_ID_HEADER] = buildId;

    const host = String(req.headers.host ?? '');
    if (!isSnapshotRender && isCustomDomain(host, options.domains)) {
      const domain = host.toLowerCase().replace(/:\d+$/, '');
      const route = await domainRouter.route(domain, pathname, searchParams, req.headers.cookie);
      if (route.kind === 'redirect') {
        res.writeHead(302, { location: route.location, 'cache-control': 'no-store' });
        res.end();
        return;
      }
      // Pages on a custom domain render with unprefixed links; their payloads are the store's own.
      if (route.path.endsWith('/_payload.json') && (await fromBuild(route.path))) return;
      req.headers[STORE_DOMAIN_HEADER] = domain;
      req.url = route.path + url.search;
      return render();
    }

    if (isSnapshotCandidate(pathname, searchParams) && (await fromBuild(pathname))) return;
    return render();
  };
}

async function handleRebuild(req: IncomingMessage, res: ServerResponse, rebuild: NonNullable<FrontOptions['rebuild']>): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'Method not allowed' }));
    return;
  }
  const auth = String(req.headers.authorization ?? '');
  const { timingSafeEqual } = await import('node:crypto');
  const given = Buffer.from(auth.replace(/^Bearer\s+/i, ''));
  const expected = Buffer.from(rebuild.token);
  if (!rebuild.token || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
    res.end(JSON.stringify({ message: 'A valid rebuild token is required.' }));
    return;
  }
  await rebuild.run(res);
}
