import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { serializeCookie } from '../lib/cookies.ts';
import { isCustomDomain, normalizeHost, type DomainConfig } from '../lib/custom-domain.ts';
import type { PublicEnv } from '../lib/public-settings.ts';
import { reportError } from '../lib/report.ts';
import type { StoreLoadingDecision } from '../lib/store-loading.ts';
import type { BuildPointer } from './build-pointer.ts';
import type { ApiMicrocache } from './api-microcache.ts';
import { compressHtmlAnswer } from './compress-response.ts';
import { CustomDomainRouter } from './custom-domain-router.ts';
import { renderFor } from './rendering-request.ts';
import { cacheControlFor, sendEntry, type StaticEntry, type StaticFolder } from './static-files.ts';
import { serveMedia } from './media-answers.ts';
import { parseMediaUrl } from '../server/media/media-folder.ts';
import type { MediaStorage } from '../server/media/media-storage.ts';
import { hasDerivatives, parseDerivativeQuery } from '../lib/responsive-image.ts';
import { sendDerivative, type ImageDerivatives } from './image-derivatives.ts';
import {
  answerPreviewRoute,
  endPreview,
  isPreviewedPath,
  PREVIEW_COOKIE,
  PREVIEW_HEADERS,
  previewedBuild,
  previewOf,
  previewRoute,
  sendPreviewPage,
} from './preview.ts';
import type { PreviewedBuild } from './preview-banner.ts';

/** Astro's handler in @astrojs/node middleware mode. */
export type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
  locals?: FrontLocals,
) => Promise<void>;

/**
 * What the API gets besides the Request: the Node request it answers (@hono/node-server's bindings),
 * whose socket and forwarding headers say which client is calling (per-client rate limits).
 */
export type ApiBindings = Partial<HttpBindings | Http2Bindings>;

/** The API's `fetch` (Hono's `app.fetch`): the bindings must reach it, or every caller is one client. */
export type ApiFetch = (request: Request, bindings?: ApiBindings) => Response | Promise<Response>;

/**
 * The build a document was served from, as `Server-Timing: build;desc="<id>"`: the build poller reads it
 * from the navigation entry. Pages carry no build id in their bytes, so an incremental build reuses them
 * as they are (docs/decisions/211-incremental-builds.md).
 */
export function buildTimingHeader(id: string): Record<string, string> {
  return { 'server-timing': `build;desc="${id}"` };
}

/**
 * What the front knows about a request and hands Astro as typed `locals` (src/env.d.ts): never
 * request headers, which a client could send itself.
 */
export type FrontLocals = Pick<App.Locals, 'customDomain' | 'prerender'> &
  Partial<Pick<App.Locals, 'storeOutcome' | 'api' | 'siteUrl' | 'publicEnv'>>;

export type FrontOptions = {
  apiFetch: ApiFetch;
  astroHandler: AstroHandler;
  /** `dist/client`: Astro's hashed assets and `public/` files. */
  assets: StaticFolder;
  builds: BuildPointer;
  domains: DomainConfig;
  /** Public catalog answers of the API kept for about a second (shoppers' calls only, not renders). */
  microcache?: ApiMicrocache;
  /** Stores' own media (`/{slug}/media/{name}`), served after the API allowed the shopper in. */
  media?: MediaStorage;
  /** AVIF/WebP derivatives of local images (`{image}?w=…&fm=…`); without it those requests get the original. */
  images?: ImageDerivatives;
  /** What every render is handed besides the request: the API to call, the public site origin, the `PUBLIC_*` settings. */
  renderContext?: () => Pick<FrontLocals, 'api' | 'siteUrl' | 'publicEnv'>;
  /** The `PUBLIC_*` settings: the API and GeoIP origins join the Content-Security-Policy. */
  publicEnv?: PublicEnv;
};

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
export function contentSecurityPolicy(env: PublicEnv): string {
  const connect = [
    "'self'",
    'https://api.stripe.com',
    'https://m.stripe.network',
    'https://q.stripe.com',
    ...originOf(env.PUBLIC_API_BASE_URL),
    ...originOf(env.PUBLIC_GEOIP_URL),
  ];
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
const SECURITY_HEADER_LIST = Object.entries(SECURITY_HEADERS);

/**
 * The extra headers of a file's answer: always the same object for one entry, since `sendEntry` keeps
 * the headers it makes with the entry. They repeat the security headers, so a file answered without
 * `setHeader` (`answerKnownFile`) carries them too.
 */
export function fileHeaders(documentHeaders: Record<string, string>) {
  const forDocument = { ...SECURITY_HEADERS, ...documentHeaders };
  /** A build's documents also name the build (one object per build, as `sendEntry` keeps them). */
  const forBuild = new Map<string, Record<string, string>>();
  return (entry: Pick<StaticEntry, 'type'>, build?: string) => {
    if (!isDocumentType(entry.type)) return SECURITY_HEADERS;
    if (build === undefined) return forDocument;
    let headers = forBuild.get(build);
    if (!headers) {
      if (forBuild.size >= 100) forBuild.clear();
      forBuild.set(build, (headers = { ...forDocument, ...buildTimingHeader(build) }));
    }
    return headers;
  };
}

/**
 * Headers that only mean something on a document (HTML, or SVG, which can carry script): the policy
 * is ≈ 900 bytes, which every script, stylesheet and image would otherwise carry for nothing.
 */
export const documentHeaders = (env: PublicEnv): Record<string, string> => ({
  'x-frame-options': 'SAMEORIGIN',
  'content-security-policy': contentSecurityPolicy(env),
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(self "https://js.stripe.com")',
  'cross-origin-opener-policy': 'same-origin-allow-popups',
});

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
  const DOCUMENT_HEADERS = documentHeaders(options.publicEnv ?? {});
  const headersOfFile = fileHeaders(DOCUMENT_HEADERS);

  /** Hosts seen and whether each is a custom domain: a few per deployment, so the answer is kept. */
  const customHosts = new Map<string, boolean>();
  const isCustomHost = (host: string) => {
    let custom = customHosts.get(host);
    if (custom === undefined) {
      if (customHosts.size >= 1000) customHosts.clear();
      custom = isCustomDomain(host, options.domains);
      customHosts.set(host, custom);
    }
    return custom;
  };
  /**
   * A file this front has answered before (an asset, or a page of the live snapshot), answered without
   * parsing the URL or waiting on a promise: the common request of a static store, which is what the
   * static budget weighs against nginx (docs/decisions/210-budgets-as-ratios-in-one-run.md). False when
   * anything is not known yet, and the full path below answers (and learns it).
   *
   * The same answer as the full path: the raw URL is a key those lookups stored, which are normalized
   * pathnames, so it needs no normalizing; it has no query (so no image derivative and a snapshot
   * candidate); the host is not a custom domain; a media path never gets here.
   */
  const answerKnownFile = (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url;
    if (!url || (req.method !== 'GET' && req.method !== 'HEAD') || url.includes('?')) return false;
    // `//x` is a path to Node but a host to `new URL` (the full path's parser): let that path decide.
    if (url.startsWith('/api') || url.startsWith('//')) return false;
    const asset = url === '/' ? null : options.assets.known(url);
    let entry: StaticEntry | null | undefined = asset;
    if (asset === null) {
      if (isCustomHost(req.headers.host ?? '') || parseMediaUrl(url)) return false;
      // An operator previewing a build gets its pages, not the live ones (docs/decisions/208-preview-and-live-build.md).
      if (req.headers.cookie?.includes(`${PREVIEW_COOKIE}=`)) return false;
      entry = options.builds.current()?.known(url);
    }
    if (!entry) return false;
    sendEntry(req, res, entry, url, headersOfFile(entry, asset ? undefined : (options.builds.currentId ?? undefined)));
    return true;
  };

  return async function frontListener(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // First, before any other work: a kept catalog answer is the cheapest request this server answers.
    if (microcache?.serve(req, res)) return;
    if (answerKnownFile(req, res)) return;
    const url = new URL(req.url ?? '/', 'http://front');
    const { pathname, searchParams } = url;

    if (pathname === '/api' || pathname.startsWith('/api/')) {
      await api(req, res);
      return;
    }

    for (const [name, value] of SECURITY_HEADER_LIST) res.setHeader(name, value);
    const isRead = req.method === 'GET' || req.method === 'HEAD';
    const build = options.builds.current();
    const liveId = options.builds.currentId;
    const locals: FrontLocals = { ...options.renderContext?.(), customDomain: null, prerender: false };
    /** Astro's answers are documents (pages, redirects, sitemaps); Astro leaves them uncompressed. */
    const render = () => {
      for (const [name, value] of Object.entries(DOCUMENT_HEADERS)) res.setHeader(name, value);
      // An on-demand page belongs to the live build as much as a prerendered one: the poller compares it
      // the same way. (Snapshot renders do not come through here: page-render.ts.)
      if (liveId) for (const [name, value] of Object.entries(buildTimingHeader(liveId))) res.setHeader(name, value);
      // The render's own API calls (in process) are made on behalf of this shopper.
      return compressHtmlAnswer(req, res, () =>
        renderFor(req, () => options.astroHandler(req, res, undefined, locals)),
      );
    };
    const send = (entry: StaticEntry, path: string, buildId: string | null, headers?: Record<string, string>) => {
      const own = headersOfFile(entry, buildId ?? undefined);
      sendEntry(req, res, entry, path, headers ? { ...own, ...headers } : own);
    };
    // A signed-in operator's preview of a ready build (docs/decisions/208-preview-and-live-build.md).
    const preview = isRead ? previewOf(req.headers.cookie) : null;
    let previewFolder: Promise<{ folder: StaticFolder; build: PreviewedBuild } | null> | undefined;
    const previewed = (path: string) => {
      if (!preview || !isPreviewedPath(path, preview)) return null;
      previewFolder ??= previewedBuild(options.apiFetch, preview, req.headers.cookie).then(async (allowed) => {
        const folder = allowed ? await options.builds.folder(preview.build) : null;
        if (!folder) endPreview(req, res);
        return folder && allowed ? { folder, build: allowed } : null;
      });
      return previewFolder;
    };
    const fromBuild = async (path: string): Promise<boolean> => {
      if (!isRead) return false;
      const previewing = await previewed(path);
      if (previewing) {
        const entry = await previewing.folder.lookup(path);
        if (!entry) return false;
        // Its pages get the banner as they are sent (docs/decisions/213-publishing-for-editors-and-shoppers.md).
        if (entry.type.startsWith('text/html'))
          await sendPreviewPage(
            req,
            res,
            entry,
            {
              preview: preview!,
              build: previewing.build,
              headers: { ...DOCUMENT_HEADERS, ...buildTimingHeader(preview!.build) },
            },
            options.apiFetch,
          );
        else send(entry, path, preview!.build, PREVIEW_HEADERS);
        return true;
      }
      // `{page}/_payload.json?{build id}`: a page of a build served before answers from its own build.
      const named = path.endsWith('/_payload.json') ? [...searchParams.keys()] : [];
      const own = named.length === 1 ? await options.builds.servedFolder(named[0]!) : null;
      const folder = own ?? build;
      const page = folder ? await folder.lookup(path) : null;
      if (page) send(page, path, own ? named[0]! : liveId);
      return Boolean(page);
    };

    // `?w=…&fm=…` on an image's path asks for a derivative of it (docs/decisions/184-responsive-image-derivatives.md);
    // on any other path the query means nothing here.
    const derivative = isRead && options.images && hasDerivatives(pathname) ? parseDerivativeQuery(searchParams) : null;
    if (derivative === 'invalid') {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end('Unknown image size or format.');
      return;
    }
    if (isRead && pathname !== '/') {
      const asset = await options.assets.lookup(pathname);
      if (asset && derivative && options.images && asset.type.startsWith('image/')) {
        const source = asset.variants.find((variant) => variant.encoding === null)!.file;
        const cacheControl = cacheControlFor(pathname);
        return sendDerivative(req, res, {
          images: options.images,
          source,
          request: derivative,
          original: pathname,
          cacheControl,
        });
      }
      if (asset) {
        send(asset, pathname, null);
        return;
      }
    }
    /** A store's media file, on any host: the access cookies of the store reach `/{slug}/…` and `/`. */
    const media = (path: string) => {
      const found = isRead && options.media ? parseMediaUrl(path) : null;
      return found && options.media
        ? serveMedia(
            req,
            res,
            { ...found, pathname: path },
            {
              storage: options.media,
              apiFetch: options.apiFetch,
              documentHeaders: DOCUMENT_HEADERS,
              ...(derivative && options.images ? { derivative: { images: options.images, request: derivative } } : {}),
            },
          ).then(() => true)
        : Promise.resolve(false);
    };
    if (await media(pathname)) return;
    const previewing = previewRoute(req.method, url);
    if (previewing) return answerPreviewRoute(req, res, previewing, options.apiFetch);
    // The build-id files belong to the site, not to a store: every host polls the same ones.
    if (pathname.startsWith('/builds/') && (await fromBuild(pathname))) return;

    const host = req.headers.host ?? '';
    if (isCustomDomain(host, options.domains)) {
      // 'Members.VIP.test.:4321' and 'members.vip.test' are one store domain.
      const domain = normalizeHost(host);
      const route = await domainRouter.route(domain, pathname, searchParams, req.headers.cookie);
      if (route.kind === 'redirect') {
        sendRedirect(res, route.decision, req.headers['x-forwarded-proto'] === 'https');
        return;
      }
      // Pages on a custom domain render with unprefixed links; their payloads and media are the store's own.
      if (route.path.endsWith('/_payload.json') && (await fromBuild(route.path))) return;
      if (await media(route.path)) return;
      locals.customDomain = domain;
      if (route.kind === 'store') locals.storeOutcome = route.outcome;
      req.url = route.path + url.search;
      return render();
    }

    if (isSnapshotCandidate(pathname, searchParams) && (await fromBuild(pathname))) return;
    return render();
  };
}

/** Answers spec §8's redirect for a store that could not be loaded (its cookies, its error report). */
function sendRedirect(
  res: ServerResponse,
  decision: Extract<StoreLoadingDecision, { kind: 'redirect' }>,
  secure: boolean,
): void {
  if (decision.report) reportError(decision.report);
  const cookies = decision.cookies.map((cookie) => serializeCookie(cookie, { secure }));
  res.writeHead(302, {
    location: decision.location,
    'cache-control': 'no-store',
    ...(cookies.length ? { 'set-cookie': cookies } : {}),
  });
  res.end();
}
