import { describe, expect, test } from 'vitest';
import { previewBanner, previewedPage, withPreviewBanner } from '../../../src/front/preview-banner.ts';

const ready = { id: 'mhx3jz0c-a1b2c3', status: 'ready', started_at: '2026-11-27T22:05:00.000Z', kept: true };

describe('the preview banner', () => {
  test('names the build and its date, links back to Publish and out of the preview, and offers Go live for a ready build', () => {
    const banner = previewBanner({ slug: 'acme', build: ready, csrfToken: 'tok"en', page: '/acme/shop?page=2' });
    expect(banner).toMatch(/^<section class="build-preview" aria-label="Build preview" data-build-preview><style>/);
    expect(banner).toContain(
      '<strong>Preview of build mhx3jz0c-a1b2c3</strong>, built <time datetime="2026-11-27T22:05:00.000Z">11/27/2026, 22:05 UTC</time>.',
    );
    expect(banner).toContain('<a href="/admin/acme/publish">Back to Publish</a>');
    expect(banner).toContain('<form method="post" action="/admin/acme/preview/mhx3jz0c-a1b2c3/live">');
    expect(banner).toContain('name="csrf_token" value="tok&quot;en"');
    expect(banner).toContain('<a href="/admin/acme/preview?page=%2Facme%2Fshop%3Fpage%3D2">Leave preview</a>');
  });

  test('offers no Go live for the live build, a build no longer kept, or without the session’s token', () => {
    const noGoLive = [
      { ...ready, status: 'live' },
      { ...ready, kept: false },
    ].map((build) => previewBanner({ slug: 'acme', build, csrfToken: 'token', page: '/acme' }));
    noGoLive.push(previewBanner({ slug: 'acme', build: ready, csrfToken: null, page: '/acme' }));
    for (const banner of noGoLive) expect(banner).not.toContain('<form');
    expect(noGoLive[0]).toContain('This build is live: shoppers see it too.');
  });

  test('goes first in the page’s body, after its skip link', () => {
    expect(withPreviewBanner('<!doctype html><html><body class="x"><main>Hi</main></body></html>', '<b>B</b>')).toBe(
      '<!doctype html><html><body class="x"><b>B</b><main>Hi</main></body></html>',
    );
    expect(withPreviewBanner('<p>bare</p>', '<b>B</b>')).toBe('<b>B</b><p>bare</p>');
    expect(withPreviewBanner('<body>\n<a class="skip-link" href="#main">\nSkip</a><header>', '<b>B</b>')).toBe(
      '<body>\n<a class="skip-link" href="#main">\nSkip</a><b>B</b><header>',
    );
  });

  test('comes back only to pages of the previewed store', () => {
    expect(previewedPage('acme', '/acme/shop?page=2')).toBe('/acme/shop?page=2');
    expect(previewedPage('acme', '/acme')).toBe('/acme');
    for (const elsewhere of ['//evil.example', '/acmex', '/vip/shop', 'https://evil.example/acme', '/\\evil', null])
      expect(previewedPage('acme', elsewhere)).toBe('/acme');
  });
});
