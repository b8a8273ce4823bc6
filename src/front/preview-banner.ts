/**
 * The banner an operator sees on every page of a build they preview
 * (docs/decisions/213-publishing-for-editors-and-shoppers.md): which build and when it was built, the way
 * back to the console's Publish page, Go live and Leave preview. The front adds it to previewed HTML answers
 * as it sends them, so the build's files stay byte-identical for shoppers, who never get it. No script:
 * Go live is a form the front answers, Leave preview a link.
 */
import { escapeMarkup } from '../lib/markup-escape.ts';

/** The build as the store's console reads it (`GET /api/admin/stores/{slug}/builds/{id}`). */
export type PreviewedBuild = { id: string; status: string; started_at: string; kept: boolean };

export type BannerParts = {
  slug: string;
  build: PreviewedBuild;
  /** The session's CSRF token; without it the banner offers no Go live. */
  csrfToken: string | null;
  /** The previewed page's path and query: where Go live and Leave preview come back to. */
  page: string;
};

/** Statuses of a rendered build that can become the live one (ADR 208). */
const CAN_GO_LIVE = new Set(['ready', 'rolled_back']);

const BUILT_AT = new Intl.DateTimeFormat('en-US', {
  month: '2-digit',
  day: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

// Its own colours and sizes, whatever the store's theme; it wraps on a phone. 4.5:1 contrast at least.
const STYLE = `.build-preview{all:initial;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;padding:.5rem 1rem;background:#1e293b;color:#f8fafc;font:15px/1.4 system-ui,sans-serif;border-bottom:3px solid #facc15}
.build-preview *{box-sizing:border-box;font:inherit;color:inherit;margin:0}
.build-preview p{flex:1 1 16rem}
.build-preview a{color:#f8fafc;text-decoration:underline}
.build-preview form{display:inline}
.build-preview button{cursor:pointer;padding:.35rem .9rem;border:0;border-radius:4px;background:#facc15;color:#1e293b;font-weight:600}
.build-preview a:focus-visible,.build-preview button:focus-visible{outline:3px solid #facc15;outline-offset:2px}
.build-preview button:focus-visible{outline-color:#f8fafc}`;

/** The previewed page to come back to: a path of the previewed store, else the store's front page. */
export function previewedPage(slug: string, value: string | null | undefined): string {
  const home = `/${slug}`;
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return home;
  const url = new URL(value, 'http://front');
  if (url.pathname !== home && !url.pathname.startsWith(`${home}/`)) return home;
  return url.pathname + url.search;
}

/** The banner's markup: a named region, first in the page's body. */
export function previewBanner({ slug, build, csrfToken, page }: BannerParts): string {
  const e = escapeMarkup;
  const live = build.status === 'live';
  const goLive =
    csrfToken && CAN_GO_LIVE.has(build.status) && build.kept
      ? `<form method="post" action="/admin/${e(slug)}/preview/${e(build.id)}/live">` +
        `<input type="hidden" name="csrf_token" value="${e(csrfToken)}">` +
        `<input type="hidden" name="page" value="${e(page)}">` +
        `<button type="submit">Go live</button></form>`
      : '';
  return (
    `<section class="build-preview" aria-label="Build preview" data-build-preview><style>${STYLE}</style>` +
    `<p><strong>Preview of build ${e(build.id)}</strong>, built <time datetime="${e(build.started_at)}">` +
    `${e(BUILT_AT.format(new Date(build.started_at)))} UTC</time>. ` +
    (live ? 'This build is live: shoppers see it too.' : 'Shoppers still see the live build.') +
    `</p><a href="/admin/${e(slug)}/publish">Back to Publish</a>${goLive}` +
    `<a href="/admin/${e(slug)}/preview?page=${e(encodeURIComponent(page))}">Leave preview</a></section>`
  );
}

/**
 * The page with the banner first in its body, after the skip link when the page starts with one (the skip
 * link stays the first thing a keyboard reaches; axe's region rule wants it first). A page without a body
 * tag gets it first of all.
 */
export function withPreviewBanner(html: string, banner: string): string {
  const body = /<body\b[^>]*>\s*(?:<a\b[^>]*\bclass="skip-link"[^>]*>[\s\S]*?<\/a>)?/i.exec(html);
  if (!body) return banner + html;
  const at = body.index + body[0].length;
  return html.slice(0, at) + banner + html.slice(at);
}
