/**
 * Previews of a ready build (docs/decisions/208-preview-and-live-build.md). An operator opens
 * `/admin/{store}/preview/{build}`: the front asks the API whether the session may read that build from
 * that store's console, and sets a preview cookie naming both. While it is set, the store's snapshot pages,
 * their payloads and `builds/…` come from that build's folder, `private, no-store` and `noindex`; each such
 * answer asks the API again, so a signed-out session or a removed build ends the preview. The build's
 * own links, payload URLs and build poller then stay inside the build with no URL rewriting.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseCookies } from '../lib/cookies.ts';
import { SESSION_COOKIE } from '../server/console/sessions.ts';
import type { ApiFetch } from './front-server.ts';

export const PREVIEW_COOKIE = 'build_preview';
/** Headers of every previewed answer: never kept by a cache, never indexed. */
export const PREVIEW_HEADERS = { 'cache-control': 'private, no-store', 'x-robots-tag': 'noindex' } as const;

const NAME = '[a-z0-9][\\w-]{0,63}';
const OPEN = new RegExp(`^/admin/(${NAME})/preview/(${NAME})/?$`);
const EXIT = new RegExp(`^/admin/(${NAME})/preview/?$`);

export type Preview = { slug: string; build: string };

/** `/admin/{store}/preview/{build}` opens a preview; `/admin/{store}/preview` ends it. */
export function previewRoute(
  pathname: string,
): { kind: 'open'; preview: Preview } | { kind: 'exit'; slug: string } | null {
  const open = OPEN.exec(pathname);
  if (open) return { kind: 'open', preview: { slug: open[1]!, build: open[2]! } };
  const exit = EXIT.exec(pathname);
  return exit ? { kind: 'exit', slug: exit[1]! } : null;
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

/**
 * Whether the session may preview the build: the API's own record of the build as the store's console
 * reads it (a role in the store, the build asked from it or by the token or command line), kept on disk.
 */
export async function mayPreview(
  apiFetch: ApiFetch,
  preview: Preview,
  cookieHeader: string | undefined,
): Promise<boolean> {
  const session = parseCookies(cookieHeader)[SESSION_COOKIE];
  if (!session) return false;
  try {
    const answer = await apiFetch(
      new Request(
        `http://front.internal/api/admin/stores/${preview.slug}/builds/${encodeURIComponent(preview.build)}`,
        { headers: { cookie: `${SESSION_COOKIE}=${session}` } },
      ),
    );
    if (!answer.ok) return false;
    const { data } = (await answer.json()) as { data?: { kept?: boolean } };
    return data?.kept === true;
  } catch {
    return false;
  }
}

function previewCookie(value: string | null, secure: boolean): string {
  // A session cookie (no Max-Age), HttpOnly: only the front reads it. Strict: no other site's link previews.
  const parts = [`${PREVIEW_COOKIE}=${value ?? ''}`, 'Path=/', 'HttpOnly', 'SameSite=Strict'];
  if (value === null) parts.push('Max-Age=0');
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/** Answers `/admin/{store}/preview/{build}` (the store's front page of the build) and `/admin/{store}/preview` (the end). */
export async function answerPreviewRoute(
  req: IncomingMessage,
  res: ServerResponse,
  route: NonNullable<ReturnType<typeof previewRoute>>,
  apiFetch: ApiFetch,
): Promise<void> {
  const secure = req.headers['x-forwarded-proto'] === 'https';
  if (route.kind === 'exit') {
    res.writeHead(303, {
      location: `/admin/${route.slug}/publish`,
      'set-cookie': previewCookie(null, secure),
      'cache-control': 'no-store',
    });
    res.end();
    return;
  }
  const { preview } = route;
  if (!(await mayPreview(apiFetch, preview, req.headers.cookie))) {
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
