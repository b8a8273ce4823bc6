/**
 * Attacks on the running store (docs/decisions/121-hostile-input-at-the-edge.md), through `npm start`'s own server: open redirects through
 * every form of /refresh, cookie attributes injected through the path, a restricted store's media, and
 * restricted names in the built output. Each test prints a `[reliability]` line.
 *   E2E_PORT=4404 npx playwright test tests/e2e/security.spec.ts
 */
import { readdir, readFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { parseSetCookie } from 'cookie';
import { demoCatalogs, VIP_DOMAIN_TOKEN, VIP_RECIPIENT } from '../../src/server/db/demo-data.ts';

const port = Number(process.env.E2E_PORT ?? 4399);
const distDir = path.resolve(process.env.DIST_DIR ?? 'dist');
const buildsDir = path.resolve(process.env.BUILDS_DIR ?? `.data-e2e-${port}-builds`);

/** The e2e server runs on PGlite (scripts/e2e-server.ts). */
const report = (name: string, fields: Record<string, string | number>) =>
  console.log(
    `[reliability] ${name} pglite: ${Object.entries(fields)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );

type Answer = {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
};

/** One GET as written (no redirect followed, any Host, the path not normalised), through node:http. */
function raw(pathAndQuery: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: pathAndQuery, headers: { host: `localhost:${port}`, ...headers } },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('latin1')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test.describe('/refresh never redirects to another origin', () => {
  // Dot segments, backslashes, tabs and newlines, encodings, schemes and look-alike dots.
  const TARGETS = [
    '/.//evil.example',
    '/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/x/..//evil.example',
    '/a/b/../..//evil.example',
    '/././/evil.example/x?y=1#z',
    '/.%2F/evil.example',
    '/..%2F/evil.example',
    '/%2e%2e%2f/evil.example',
    '/x/%2e%2e//evil.example',
    '//evil.example',
    '///evil.example',
    '////evil.example',
    '/\\evil.example',
    '\\/evil.example',
    '\\\\evil.example',
    '/./\\evil.example',
    '/..\\/evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\t//evil.example',
    ' //evil.example',
    '/%09/evil.example',
    '/%0A/evil.example',
    '/%5Cevil.example',
    '/%5C%5Cevil.example',
    '/%2F%2Fevil.example',
    '/%252F%252Fevil.example',
    '%2F%2Fevil.example',
    'https://evil.example',
    'http:evil.example',
    'https:/evil.example',
    'HTTPS://evil.example',
    '//evil.example@localhost',
    '/@evil.example',
    '//localhost@evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    '\u3002evil.example',
    '//evil\u3002example',
    '/\uff0e\uff0e//evil.example',
    '/\u2215\u2215evil.example',
    '\u0000//evil.example',
    '/\u0000/evil.example',
  ];
  const FORMS: [string, string, Record<string, string>][] = [
    ['/refresh', '/refresh', {}],
    ['/acme/refresh', '/acme/refresh', {}],
    ['/refresh on a custom domain', '/refresh', { host: `shop.acme.test:${port}` }],
  ];

  test('a corpus of hostile targets on every form of the route', async () => {
    const open: string[] = [];
    let cases = 0;
    for (const [form, route, headers] of FORMS) {
      const origin = `http://${headers.host ?? `localhost:${port}`}`;
      for (const target of TARGETS) {
        // As an attacker's link carries it (encoded), and double encoded.
        for (const to of [encodeURIComponent(target), encodeURIComponent(encodeURIComponent(target))]) {
          const answer = await raw(`${route}?to=${to}`, headers);
          cases++;
          const location = answer.headers.location ?? '';
          const lands = location ? new URL(location, `${origin}${route}`) : null;
          const escapes =
            answer.status >= 500 || lands?.origin !== origin || /^[/\\]{2}|[\\\u0000-\u001f]/.test(location);
          if (escapes) open.push(`${form} to=${to} → ${answer.status} ${location}`);
        }
      }
    }
    report('open-redirect', {
      forms: FORMS.length,
      targets: TARGETS.length,
      cases,
      open_redirects: open.length,
      violations: open.length,
    });
    expect(open).toEqual([]);
  });

  test('in Chromium, the reported targets land on the store itself', async ({ page, baseURL }) => {
    const origin = new URL(baseURL!).origin;
    for (const to of ['/.//evil.example', '/..//evil.example', '/%2e//evil.example', '/x/..//evil.example']) {
      await page.goto(`/refresh?to=${encodeURIComponent(to)}`).catch(() => null);
      expect(new URL(page.url()).origin, to).toBe(origin);
      await page.goto(`/acme/refresh?to=${encodeURIComponent(to)}`).catch(() => null);
      expect(new URL(page.url()).origin, `/acme/refresh ${to}`).toBe(origin);
    }
    await page.goto(`/refresh?to=${encodeURIComponent('/acme/shop?page=1')}`);
    expect(new URL(page.url()).pathname).toBe('/acme/shop');
  });
});

test('cookie attributes cannot be injected through the path or the access link', async () => {
  const ATTEMPTS: [string, Record<string, string>][] = [
    ['/acme%3B%20Path%3D%2F%3B%20Domain%3D127.0.0.1?uuid=X', {}],
    ['/acme;%20Path=/;%20Domain=127.0.0.1?uuid=X', {}],
    ['/acme%3B%20Domain%3Devil.example%3B%20Secure/shop?token=X', {}],
    ['/acme%3BPath%3D%2F?token=X', {}],
    ['/acme%0D%0ASet-Cookie:%20evil=1?uuid=X', {}],
    ['/acme%0ASet-Cookie:%20evil=1/cart?uuid=X', {}],
    ['/acme%00?uuid=X', {}],
    ['/ACME%3B%20Path%3D%2F?uuid=X', {}],
    ['/vip%3B%20Path%3D%2F/shop?uuid=X', {}],
    ['/acme%3B%20Path%3D%2F', {}],
    ['/acme?uuid=X%3B%20Path%3D%2F%3B%20Domain%3D127.0.0.1', {}],
    ['/acme?token=X%0D%0ASet-Cookie:%20evil=1', {}],
    ['/acme/shop?uuid=%3B%20Domain%3Devil.example&token=%3B%20Path%3D%2F', {}],
    ['/?uuid=X%3B%20Domain%3D127.0.0.1', { host: `shop.acme.test:${port}` }],
    ['/shop%3B%20Path%3D%2F?uuid=X', { host: `shop.acme.test:${port}` }],
  ];
  const ALLOWED_PATHS = new Set(['/', '/acme', '/vip', '/restricted']);
  const injected: string[] = [];
  let cookies = 0;
  for (const [pathAndQuery, headers] of ATTEMPTS) {
    const answer = await raw(pathAndQuery, headers);
    if (answer.status >= 500) injected.push(`${pathAndQuery} → ${answer.status}`);
    const setCookies = answer.headers['set-cookie'] ?? [];
    for (const header of setCookies) {
      cookies++;
      const parsed = parseSetCookie(header);
      const attributes = header
        .split(';')
        .slice(1)
        .map((a) => a.trim().split('=')[0]!.toLowerCase());
      const bad =
        parsed.domain !== undefined ||
        !ALLOWED_PATHS.has(parsed.path ?? '') ||
        attributes.filter((a) => a === 'path').length !== 1 ||
        ![
          'subdomain',
          'store-slug',
          'allowed-domain-token',
          'allowed-recipient-token',
          'recipient-token',
          'browser_token',
        ].includes(parsed.name);
      if (bad) injected.push(`${pathAndQuery} → ${header}`);
    }
  }
  report('cookie-injection', {
    attempts: ATTEMPTS.length,
    cookies_set: cookies,
    injected: injected.length,
    violations: injected.length,
  });
  expect(injected).toEqual([]);
});

test.describe('a restricted store’s media', () => {
  const vip = demoCatalogs.find((c) => c.store.slug === 'vip')!;
  const images = (vip.products ?? []).flatMap((p) => (p.images ?? []).map((i) => i.url));
  const files = [...images, vip.store.favicon_url!];

  test('are no public files, and are refused without access on every host', async () => {
    const served: string[] = [];
    let requests = 0;
    const ask = async (pathAndQuery: string, headers: Record<string, string> = {}) => {
      const answer = await raw(pathAndQuery, headers);
      requests++;
      if (answer.status === 200 || answer.status >= 500 || answer.body.includes('VIP Reserve'))
        served.push(`${pathAndQuery} ${JSON.stringify(headers)} → ${answer.status}`);
      return answer;
    };
    for (const url of files) {
      const name = path.basename(url);
      // Where the files used to be: the public static folder.
      await ask(`/images/demo/${name}`);
      expect((await ask(url)).status).toBe(403);
      await ask(url, { cookie: `allowed-recipient-token=${crypto.randomUUID()}; allowed-domain-token=wrong-token` });
      await ask(url, { cookie: 'allowed-recipient-token=%00' });
      await ask(`/acme/media/..%2Fvip%2F${name}`);
      await ask(`/media/${name}`, { host: `members.vip.test:${port}` });
      await ask(url, { host: `members.vip.test:${port}` });
      await ask(`/media/${name}`, { host: `shop.acme.test:${port}` });
      // Their AVIF/WebP derivatives follow the same rule (docs/decisions/184-responsive-image-derivatives.md).
      expect((await ask(`${url}?w=320&fm=avif`)).status).toBe(403);
      await ask(`${url}?w=640&fm=webp`, { cookie: 'allowed-domain-token=wrong-token' });
      await ask(`/media/${name}?w=320&fm=avif`, { host: `members.vip.test:${port}` });
      await ask(`/images/demo/${name}?w=320&fm=avif`);
    }
    report('restricted-media-http', {
      files: files.length,
      requests,
      served_without_access: served.length,
      violations: served.length,
    });
    expect(served).toEqual([]);
  });

  test('load on the store’s pages once the access link was used, privately', async ({ page, baseURL }) => {
    await page.goto(`/vip?uuid=${VIP_RECIPIENT.uuid}`);
    await expect(page).toHaveURL(/\/vip$/);
    await page
      .getByRole('link', { name: /VIP Reserve Chronograph/ })
      .first()
      .click();
    const image = page.getByRole('img', { name: /VIP Reserve Chronograph/ }).first();
    await expect(image).toBeVisible();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    expect(await image.getAttribute('src')).toMatch(/^\/vip\/media\/vip-reserve-watch-\d\.svg$/);
    // What the browser shows is an AVIF derivative of the store's media, made after the same access check.
    expect(await image.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(
      /\/vip\/media\/vip-reserve-watch-\d\.svg\?w=\d+&fm=avif$/,
    );
    // The page's own request context carries the browser's cookies.
    const answer = await page.request.get(`${baseURL}${images[0]}`);
    expect(answer.status()).toBe(200);
    expect(answer.headers()['cache-control']).toBe('private, no-store');
    const derivative = await page.request.get(`${baseURL}${images[0]}?w=640&fm=webp`);
    expect(derivative.status()).toBe(200);
    expect(derivative.headers()['content-type']).toBe('image/webp');
    expect(derivative.headers()['cache-control']).toBe('private, no-store');
  });

  test('load on the store’s own domain with the domain token', async ({ page, baseURL }) => {
    const origin = `http://members.vip.test:${new URL(baseURL!).port}`;
    await page.goto(`${origin}/?token=${VIP_DOMAIN_TOKEN}`);
    await expect(page).toHaveURL(`${origin}/`);
    // Card images are decorative (the card's name names the link): found by place, not by name.
    const image = page.locator('.card img[src*="/media/"]').first();
    await expect(image).toBeVisible();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
  });
});

test('no restricted store’s product name, id or media file appears anywhere in dist/ or the builds', async ({
  request,
}) => {
  // A page first, so the snapshot build exists.
  expect((await request.get('/acme/shop')).status()).toBe(200);
  const restricted = demoCatalogs.filter((c) => c.store.restricted);
  const publicCollectionNames = new Set(
    demoCatalogs
      .filter((c) => !c.store.restricted)
      .flatMap((c) => (c.collections ?? []).flatMap((col) => [col.title, `collections/${col.handle}`])),
  );
  const needles = [
    ...new Set(
      restricted.flatMap((c) => [
        ...(c.products ?? []).flatMap((p) => [p.name, p.id, ...(p.images ?? []).map((i) => path.basename(i.url))]),
        ...(c.bundles ?? []).flatMap((b) => [b.name, b.id]),
        // Its collections, where no public store has one of the same name (`Timepieces`).
        ...(c.collections ?? [])
          .flatMap((col) => [col.title, `collections/${col.handle}`])
          .filter((name) => !publicCollectionNames.has(name)),
      ]),
    ),
  ];
  expect(needles.length).toBeGreaterThan(5);
  const leaks: string[] = [];
  let scanned = 0;
  for (const root of [distDir, buildsDir]) {
    const entries = await readdir(root, { withFileTypes: true, recursive: true });
    for (const entry of entries.filter((e) => e.isFile())) {
      const file = path.join(entry.parentPath, entry.name);
      scanned++;
      const bytes = await readFile(file);
      // Compressed siblings are read as what a browser would get.
      const text = (
        entry.name.endsWith('.br')
          ? brotliDecompressSync(bytes)
          : entry.name.endsWith('.gz')
            ? gunzipSync(bytes)
            : bytes
      ).toString('utf8');
      for (const needle of needles)
        if (file.includes(needle) || text.includes(needle))
          leaks.push(`${path.relative(process.cwd(), file)}: ${needle}`);
    }
  }
  report('restricted-names-in-build', {
    dirs: 2,
    files: scanned,
    names: needles.length,
    leaks: leaks.length,
    violations: leaks.length,
  });
  expect(scanned).toBeGreaterThan(50);
  expect(leaks).toEqual([]);
});
