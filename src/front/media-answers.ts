import type { IncomingMessage, ServerResponse } from 'node:http';
import { isApiError } from '../lib/api-error.ts';
import { etagMatches } from '../lib/etag.ts';
import { createRequester, getStore } from '../lib/api-client/index.ts';
import { headerCookieJar, parseCookies } from '../lib/cookies.ts';
import { SESSION_COOKIE } from '../server/console/sessions.ts';
import type { MediaStorage, StoredMedia } from '../server/media/media-storage.ts';
import { sendEntry, type StaticEntry } from './static-files.ts';
import type { DerivativeRequest } from '../lib/responsive-image.ts';
import { sendDerivative, type ImageDerivatives } from './image-derivatives.ts';

type ApiFetch = (request: Request) => Response | Promise<Response>;

type Access =
  { kind: 'allowed'; restricted: boolean } | { kind: 'denied' } | { kind: 'missing' } | { kind: 'unavailable' };

/**
 * Whether the shopper may see the store, asked of the API exactly as its pages ask: the access cookies
 * (allowed-recipient, allowed-domain, browser_token) become the API's headers (lib/api-client).
 */
async function storeAccess(apiFetch: ApiFetch, slug: string, cookieHeader: string | undefined): Promise<Access> {
  const request = createRequester({
    baseUrl: 'http://front.internal/api/',
    cookies: headerCookieJar(cookieHeader),
    fetch: async (input, init) => apiFetch(new Request(input, init)),
  });
  try {
    const info = await getStore(request, slug);
    return { kind: 'allowed', restricted: info.data.attributes.allowedListsPresent };
  } catch (error) {
    if (isApiError(error) && error.status === 404) return { kind: 'missing' };
    if (isApiError(error) && error.status === 422) return { kind: 'denied' };
    return { kind: 'unavailable' };
  }
}

/**
 * Whether the request carries a console session of an operator with a role in the store: they see its
 * media on the console's pages without a shopper's access (docs/decisions/201-console-product-images.md).
 * Asked of the API's own `me`, so sessions end and roles go exactly as the console's calls see them.
 */
async function operatorAccess(apiFetch: ApiFetch, slug: string, cookieHeader: string | undefined): Promise<boolean> {
  const session = parseCookies(cookieHeader)[SESSION_COOKIE];
  if (!session) return false;
  try {
    const answer = await apiFetch(
      new Request('http://front.internal/api/admin/me', { headers: { cookie: `${SESSION_COOKIE}=${session}` } }),
    );
    if (!answer.ok) return false;
    const me = (await answer.json()) as { stores?: { slug: string }[] };
    return me.stores?.some((store) => store.slug === slug) ?? false;
  } catch {
    return false;
  }
}

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(text);
}

/** A public store's media may be cached briefly: an upload replaces a file under its name. */
export const PUBLIC_MEDIA_CACHE_CONTROL = 'public, max-age=300';

export type MediaRequest = {
  slug: string;
  name: string;
  /** The request path, for the answer's headers. */
  pathname: string;
};

/**
 * Answers a store media file (media-folder.ts) after the API allowed the shopper in: 403 without access,
 * 404 for an unknown store or file. A restricted store's files are `private, no-store`, so no shared
 * cache keeps one for the next shopper; a public store's may be cached briefly (uploads replace them).
 */
export async function serveMedia(
  req: IncomingMessage,
  res: ServerResponse,
  media: MediaRequest,
  options: {
    storage: MediaStorage;
    apiFetch: ApiFetch;
    documentHeaders: Record<string, string>;
    /** The request asks for an AVIF/WebP derivative of the file: same access rule, same cache policy. */
    derivative?: { images: ImageDerivatives; request: DerivativeRequest };
  },
): Promise<void> {
  let access = await storeAccess(options.apiFetch, media.slug, req.headers.cookie);
  if (access.kind === 'denied' && (await operatorAccess(options.apiFetch, media.slug, req.headers.cookie)))
    access = { kind: 'allowed', restricted: true };
  if (access.kind === 'missing') {
    plain(res, 404, 'Not found');
    return;
  }
  if (access.kind === 'denied') {
    plain(res, 403, 'The store has restricted access.');
    return;
  }
  if (access.kind === 'unavailable') {
    plain(res, 503, 'The service is temporarily unavailable. Please try again.', { 'retry-after': '5' });
    return;
  }
  const file = await options.storage.find(media.slug, media.name);
  if (!file) {
    plain(res, 404, 'Not found');
    return;
  }
  const cacheControl = access.restricted ? 'private, no-store' : PUBLIC_MEDIA_CACHE_CONTROL;
  if (options.derivative) {
    const { images, request } = options.derivative;
    // A bucket's object is copied to the derivatives' cache once per version: sharp reads files.
    const source = file.file ?? (await images.localCopy(`${media.slug}/${media.name}`, file.version, file.read));
    return sendDerivative(req, res, { images, request, source, original: media.pathname, cacheControl });
  }
  // An SVG can carry script: it gets the documents' policy, like every SVG the front serves.
  const headers = file.type === 'image/svg+xml' ? { ...options.documentHeaders } : {};
  headers['cache-control'] = cacheControl;
  if (file.file === null) {
    await sendObject(req, res, file, headers);
    return;
  }
  const entry: StaticEntry = {
    etag: `"${file.version}"`,
    type: file.type,
    variants: [{ file: file.file, size: file.size, encoding: null }],
  };
  sendEntry(req, res, entry, media.pathname, headers);
}

/** Answers an object of the media bucket through the front (the bucket itself is never public). */
async function sendObject(
  req: IncomingMessage,
  res: ServerResponse,
  file: StoredMedia,
  headers: Record<string, string>,
): Promise<void> {
  const etag = `"${file.version}"`;
  const common = { ...headers, etag };
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch && etagMatches(ifNoneMatch, etag)) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  const body = await file.read();
  res.writeHead(200, { ...common, 'content-type': file.type, 'content-length': String(body.byteLength) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
