/**
 * Previews of a ready build (docs/decisions/208-preview-and-live-build.md). An operator opens
 * `/admin/{store}/preview/{build}`: the front asks the API whether the session may read that build from
 * that store's console, and sets a preview cookie naming both. While it is set, the store's snapshot pages,
 * their payloads and `builds/…` come from that build's folder, `private, no-store` and `noindex`; each such
 * answer asks the API again, so a signed-out session or a removed build ends the preview. The build's
 * own links, payload URLs and build poller then stay inside the build with no URL rewriting. Its pages
 * carry a banner (preview-banner.ts) whose Go live form posts to `/admin/{store}/preview/{build}/live`,
 * answered here through the console's own API call (docs/decisions/213-publishing-for-editors-and-shoppers.md).
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseCookies } from '../lib/cookies.ts';
import { escapeMarkup } from '../lib/markup-escape.ts';
import { SESSION_COOKIE } from '../server/console/sessions.ts';
import type { ApiFetch } from './front-server.ts';
import { previewBanner, previewedPage, withPreviewBanner, type PreviewedBuild } from './preview-banner.ts';
import type { StaticEntry } from './static-files.ts';

export const PREVIEW_COOKIE = 'build_preview';
/** Headers of every previewed answer: never kept by a cache, never indexed. */
export const PREVIEW_HEADERS = { 'cache-control': 'private, no-store', 'x-robots-tag': 'noindex' } as const;

const NAME = '[a-z0-9][\\w-]{0,63}';
const OPEN = new RegExp(`^/admin/(${NAME})/preview/(${NAME})/?$`);
const LIVE = new RegExp(`^/admin/(${NAME})/preview/(${NAME})/live$`);
const EXIT = new RegExp(`^/admin/(${NAME})/preview/?$`);
/** A Go live form carries two short fields; anything longer is not one. */
const FORM_LIMIT_BYTES = 4096;

export type Preview = { slug: string; build: string };

export type PreviewRoute =
  | { kind: 'open'; preview: Preview }
  | { kind: 'live'; preview: Preview }
  | { kind: 'exit'; slug: string; page: string | null };

/**
 * `GET /admin/{store}/preview/{build}` opens a preview; `GET /admin/{store}/preview` ends it (back to the
 * previewed page's live version with `?page=`, else the Publish page); `POST …/{build}/live` is the banner's Go live.
 */
export function previewRoute(method: string | undefined, url: URL): PreviewRoute | null {
  const { pathname } = url;
  if (method === 'POST') {
    const live = LIVE.exec(pathname);
    return live ? { kind: 'live', preview: { slug: live[1]!, build: live[2]! } } : null;
  }
  if (method !== 'GET' && method !== 'HEAD') return null;
  const open = OPEN.exec(pathname);
  if (open) return { kind: 'open', preview: { slug: open[1]!, build: open[2]! } };
  const exit = EXIT.exec(pathname);
  return exit ? { kind: 'exit', slug: exit[1]!, page: url.searchParams.get('page') } : null;
}

/** The preview the request's cookie names, if any. */
export function previewOf(cookieHeader: string | undefined): Preview | null {
  const value = parseCookies(cookieHeader)[PREVIEW_COOKIE];
  const match = value ? new RegExp(`^(${NAME})\\.(${NAME})$`).exec(value) : null;
  return match ? { slug: match[1]!, build: match[2]! } : null;
}

/** Whether a path belongs to the previewed store: its pages and payloads, and the build's own files. */
export function isPreviewedPath(pathname: string, preview: Preview): boolean {
  return pathname === `/${preview.slug}` || pathname.startsWith(`/${preview.slug}/`) || pathname.startsWith('/builds/');
}

/** A signed-in read of the console's API with the request's session, or null when it is not answered. */
async function consoleRead<T>(apiFetch: ApiFetch, path: string, cookieHeader: string | undefined): Promise<T | null> {
  const session = parseCookies(cookieHeader)[SESSION_COOKIE];
  if (!session) return null;
  try {
    const answer = await apiFetch(
      new Request(`http://front.internal/api/admin${path}`, { headers: { cookie: `${SESSION_COOKIE}=${session}` } }),
    );
    return answer.ok ? ((await answer.json()) as T) : null;
  } catch {
    return null;
  }
}

/**
 * The build the session may preview: the API's own record of it as the store's console reads it (a role
 * in the store, the build asked from it or by the token or command line), kept on disk; else null.
 */
export async function previewedBuild(
  apiFetch: ApiFetch,
  preview: Preview,
  cookieHeader: string | undefined,
): Promise<PreviewedBuild | null> {
  const answer = await consoleRead<{ data?: PreviewedBuild }>(
    apiFetch,
    `/stores/${preview.slug}/builds/${encodeURIComponent(preview.build)}`,
    cookieHeader,
  );
  return answer?.data?.kept === true ? answer.data : null;
}

/**
 * Sends a previewed page with the banner first in its body: read whole, uncompressed (a preview goes to
 * one operator, `private, no-store`), never the build's file changed.
 */
export async function sendPreviewPage(
  req: IncomingMessage,
  res: ServerResponse,
  entry: StaticEntry,
  parts: { preview: Preview; build: PreviewedBuild; headers: Record<string, string> },
  apiFetch: ApiFetch,
): Promise<void> {
  const plain = entry.variants.find((variant) => variant.encoding === null)!;
  const [html, me] = await Promise.all([
    plain.data ? plain.data.toString('utf8') : readFile(plain.file, 'utf8'),
    consoleRead<{ csrf_token?: string }>(apiFetch, '/me', req.headers.cookie),
  ]);
  const banner = previewBanner({
    slug: parts.preview.slug,
    build: parts.build,
    csrfToken: me?.csrf_token ?? null,
    page: previewedPage(parts.preview.slug, req.url),
  });
  const body = Buffer.from(withPreviewBanner(html, banner));
  res.writeHead(200, {
    ...parts.headers,
    'content-type': entry.type,
    'content-length': body.length,
    ...PREVIEW_HEADERS,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function previewCookie(value: string | null, secure: boolean): string {
  // A session cookie (no Max-Age), HttpOnly: only the front reads it. Strict: no other site's link previews.
  const parts = [`${PREVIEW_COOKIE}=${value ?? ''}`, 'Path=/', 'HttpOnly', 'SameSite=Strict'];
  if (value === null) parts.push('Max-Age=0');
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/**
 * Answers `/admin/{store}/preview/{build}` (the store's front page of the build), `/admin/{store}/preview`
 * (the end) and the banner's Go live.
 */
export async function answerPreviewRoute(
  req: IncomingMessage,
  res: ServerResponse,
  route: PreviewRoute,
  apiFetch: ApiFetch,
): Promise<void> {
  const secure = req.headers['x-forwarded-proto'] === 'https';
  if (route.kind === 'exit') {
    res.writeHead(303, {
      location: route.page ? previewedPage(route.slug, route.page) : `/admin/${route.slug}/publish`,
      'set-cookie': previewCookie(null, secure),
      'cache-control': 'no-store',
    });
    res.end();
    return;
  }
  if (route.kind === 'live') return answerGoLive(req, res, route.preview, apiFetch);
  const { preview } = route;
  if (!(await previewedBuild(apiFetch, preview, req.headers.cookie))) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...PREVIEW_HEADERS });
    res.end('There is no such build to preview, or you are not signed in to this store’s console.');
    return;
  }
  res.writeHead(303, {
    location: `/${preview.slug}`,
    'set-cookie': previewCookie(`${preview.slug}.${preview.build}`, secure),
    ...PREVIEW_HEADERS,
  });
  res.end();
}

/** Removes a preview cookie the API no longer backs (signed out, build removed). */
export function endPreview(req: IncomingMessage, res: ServerResponse): void {
  res.appendHeader('set-cookie', previewCookie(null, req.headers['x-forwarded-proto'] === 'https'));
}

/** The form's fields, or null when the body is no small urlencoded form. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT_BYTES) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** A short page saying why Go live did not happen, with the ways back. */
function goLiveRefused(res: ServerResponse, status: number, message: string, preview: Preview, page: string): void {
  const e = escapeMarkup;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...PREVIEW_HEADERS });
  res.end(
    `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
      `<title>The build did not go live</title><main><h1>The build did not go live</h1><p role="alert">${e(message)}</p>` +
      `<p><a href="${e(page)}">Back to the preview</a> · <a href="/admin/${e(preview.slug)}/publish">Publish page</a></p></main></html>`,
  );
}

/**
 * The banner's Go live: the console's own call (`POST /api/admin/stores/{slug}/builds/{id}/live`) with the
 * session, the browser's Origin and the form's CSRF token, so roles, checks and the audit entry are the
 * console's. Then back to the previewed page, whose banner now says the build is live.
 */
async function answerGoLive(
  req: IncomingMessage,
  res: ServerResponse,
  preview: Preview,
  apiFetch: ApiFetch,
): Promise<void> {
  const form = await readForm(req);
  const page = previewedPage(preview.slug, form?.get('page'));
  const session = parseCookies(req.headers.cookie)[SESSION_COOKIE];
  if (!form || !session) {
    goLiveRefused(res, 400, 'Sign in to the console and try again from the preview.', preview, page);
    return;
  }
  const answer = await apiFetch(
    new Request(
      `http://${req.headers.host ?? 'front.internal'}/api/admin/stores/${preview.slug}/builds/${encodeURIComponent(preview.build)}/live`,
      {
        method: 'POST',
        headers: {
          cookie: `${SESSION_COOKIE}=${session}`,
          ...(req.headers.origin ? { origin: req.headers.origin } : {}),
          'x-csrf-token': form.get('csrf_token') ?? '',
        },
      },
    ),
  );
  if (!answer.ok) {
    const body = (await answer.json().catch(() => ({}))) as { message?: string };
    goLiveRefused(res, answer.status, body.message ?? 'The build could not go live.', preview, page);
    return;
  }
  res.writeHead(303, { location: page, 'cache-control': 'no-store' });
  res.end();
}
