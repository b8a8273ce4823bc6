/**
 * Reliability (docs/reliability.md), web: a corpus of XSS payloads in every catalog text (store title, product and variant
 * names, option names, descriptions, image alt text, bundle names) executes nothing in headless
 * Chromium, on the static snapshot pages and on the same pages rendered on demand. Also checks the
 * front's security headers and that /refresh only goes to same-origin paths.
 *
 * Starts its own storefront (startStorefront) on a free port with its own data and build folders; it
 * reuses `dist` when that build is fresh, else builds into dist-rel.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { astroBuildIsStale } from '../../src/front/astro-build.ts';
import { parseCatalog } from '../../src/server/catalog/catalog-format.ts';
import { importCatalog } from '../../src/server/catalog/import.ts';
import { openDatabase } from '../../src/server/db/connect.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { seedDemoDataIfEmpty } from '../../src/server/db/seed.ts';

/** A port the OS says is free now (the storefront is a child process, so it cannot report one back). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
const DATA_DIR = '.data-rel-xss';
const BUILDS_DIR = '.data-rel-xss-builds';
const HIT = 'window.__xss=(window.__xss||0)+1';

/** Each payload, if it ever ran, would bump window.__xss (or open a dialog). */
const PAYLOADS = [
  `<script>${HIT}</script>`,
  `<img src=x onerror="${HIT}">`,
  `<svg onload="${HIT}"></svg>`,
  `<svg><script>${HIT}</script></svg>`,
  `<a href="javascript:${HIT}">click me</a>`,
  `<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>`,
  `"><script>${HIT}</script>`,
  `'><img src=x onerror=alert(1)>`,
  `</script><script>${HIT}</script>`,
  `</title><script>${HIT}</script>`,
  `<details open ontoggle="${HIT}">`,
  `<body onload="${HIT}">`,
  `<math><mi xlink:href="javascript:${HIT}">x</mi></math>`,
  `<a href="jav&#x09;ascript:alert(1)">tab</a>`,
  `<style>@import 'javascript:alert(1)';</style>`,
  `<object data="javascript:alert(1)"></object>`,
  `<input autofocus onfocus="${HIT}">`,
  `\u2028\u2029<!--<script>${HIT}</script>-->`,
];

const SHORT = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '"><b onmouseover=alert(1)>',
];

type Running = {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
};
let storefront: Running;

/** `node scripts/start.ts` on PORT; resolves once it printed that it is ready (snapshot written). */
async function startStorefrontProcess(env: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(process.execPath, ['scripts/start.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`storefront did not start in 9 min:\n${output}`)), 540_000);
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
      if (output.includes('Storefront ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`storefront exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${env.PORT}`,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
let browser: Browser;
let productIds: string[] = [];
let bundleIds: string[] = [];

beforeAll(async () => {
  await rm(DATA_DIR, { recursive: true, force: true });
  await rm(BUILDS_DIR, { recursive: true, force: true });
  // The hostile catalog goes in through the documented import, before the server starts.
  const db = openDatabase({ dataDir: DATA_DIR });
  try {
    await migrateToLatest(db);
    await seedDemoDataIfEmpty(db);
    await importCatalog(
      db,
      parseCatalog({
        store: {
          slug: 'xss',
          title: `Hostile ${PAYLOADS[8]} Store`,
          description: PAYLOADS[0],
          restricted: false,
          tax_rate_bps: 0,
          shipping_flat: '0.00',
          free_shipping_threshold: null,
        },
        products: PAYLOADS.map((payload, i) => ({
          id: `p${i}`,
          name: `P${i} ${payload}`,
          description_html: `<p>Intro ${i}</p>${payload}${PAYLOADS[(i + 1) % PAYLOADS.length]}`,
          // Option names are at most 40 characters: the short payloads.
          option_names: [SHORT[i % SHORT.length]!],
          images: [{ url: '/images/demo/classic-tee-1.svg', alt: `alt ${payload}` }],
          variants: [
            {
              sku: `X${i}`,
              name: `V ${payload}`,
              options: { [SHORT[i % SHORT.length]!]: `S ${payload}` },
              price: '10.00',
              stock: 5,
            },
          ],
        })),
        bundles: [
          {
            id: 'b0',
            name: `Bundle ${PAYLOADS[0]}`,
            description_html: PAYLOADS[1],
            items: [
              { product: 'p0', sku: 'X0', quantity: 1 },
              { product: 'p1', sku: 'X1', quantity: 2 },
            ],
          },
        ],
      }),
    );
    const store = await db.selectFrom('stores').select('id').where('slug', '=', 'xss').executeTakeFirstOrThrow();
    productIds = (
      await db.selectFrom('products').select('id').where('store_id', '=', store.id).orderBy('id').execute()
    ).map((r) => String(r.id));
    bundleIds = (await db.selectFrom('bundles').select('id').where('store_id', '=', store.id).execute()).map((r) =>
      String(r.id),
    );
  } finally {
    await db.destroy();
  }
  // The storefront runs as `npm start` runs it, in its own process: Astro's server build must load
  // React natively, not through Vitest's module loader.
  const distDir = process.env.XSS_DIST_DIR ?? ((await astroBuildIsStale('dist')) ? 'dist-rel' : 'dist');
  storefront = await startStorefrontProcess({
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    DATA_DIR,
    BUILDS_DIR,
    DIST_DIR: distDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    SNAPSHOT_ON_START: '1',
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await storefront?.stop();
  await rm(DATA_DIR, { recursive: true, force: true });
  await rm(BUILDS_DIR, { recursive: true, force: true });
});

type Visit = {
  path: string;
  status: number;
  dialogs: number;
  hits: number;
  jsLinks: number;
  iframes: number;
  cspViolations: number;
};

async function visit(page: Page, path: string): Promise<Visit> {
  let dialogs = 0;
  const onDialog = (dialog: { dismiss(): Promise<void> }) => {
    dialogs++;
    void dialog.dismiss();
  };
  page.on('dialog', onDialog);
  const response = await page.goto(`${storefront.url}${path}`, { waitUntil: 'networkidle' });
  // Hover and focus everything once: handler attributes that need an event get their chance.
  await page.evaluate(() => {
    for (const el of Array.from(document.querySelectorAll('body *')).slice(0, 500)) {
      for (const type of ['mouseover', 'focus', 'toggle', 'load', 'error']) el.dispatchEvent(new Event(type));
    }
  });
  const figures = await page.evaluate(() => ({
    hits: (window as unknown as { __xss?: number }).__xss ?? 0,
    jsLinks: document.querySelectorAll('a[href^="javascript:" i], [src^="javascript:" i], object, embed').length,
    iframes: Array.from(document.querySelectorAll('iframe')).filter((f) => f.hasAttribute('srcdoc')).length,
    cspViolations: (window as unknown as { __csp?: number }).__csp ?? 0,
  }));
  page.off('dialog', onDialog);
  return { path, status: response?.status() ?? 0, dialogs, ...figures };
}

test('no XSS payload in the catalog executes on static or on-demand pages', async () => {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', () => {
      (window as unknown as { __csp?: number }).__csp = ((window as unknown as { __csp?: number }).__csp ?? 0) + 1;
    });
  });
  const page = await context.newPage();
  const staticPaths = [
    '/xss',
    '/xss/shop',
    ...productIds.map((id) => `/xss/product/${id}`),
    ...bundleIds.map((id) => `/xss/product-bundle/${id}`),
  ];
  // A query string makes the front render the page on demand instead of serving the snapshot.
  const onDemand = staticPaths.map((p) => `${p}?fresh=1`);
  const visits: Visit[] = [];
  for (const path of [...staticPaths, ...onDemand]) visits.push(await visit(page, path));

  // The cart island renders names from the API: put every payload product in a cart and look.
  const token = (await page.request.get(`${storefront.url}/api/store_front/xss/cart`)).headers()['recipient-token']!;
  for (const id of productIds) {
    const variants = await (
      await page.request.get(`${storefront.url}/api/store_front/xss/products/${id}/product_variants`)
    ).json();
    await page.request.post(`${storefront.url}/api/store_front/xss/cart/cart_line_items`, {
      headers: { 'recipient-token': token },
      data: { cart_line_item: { product_variant_id: variants.data[0].id, quantity: 1 } },
    });
  }
  await context.addCookies([{ name: 'recipient-token', value: token, url: storefront.url }]);
  visits.push(await visit(page, '/xss/cart'));
  await context.close();

  const bad = visits.filter((v) => v.status !== 200 || v.dialogs || v.hits || v.jsLinks || v.iframes);
  const sum = (k: 'dialogs' | 'hits' | 'jsLinks' | 'iframes' | 'cspViolations') => visits.reduce((n, v) => n + v[k], 0);
  console.log(
    `[reliability] xss chromium: payloads=${PAYLOADS.length} pages=${visits.length} (static=${staticPaths.length} on_demand=${onDemand.length} cart=1) executed=${sum('hits')} dialogs=${sum('dialogs')} javascript_links=${sum('jsLinks')} srcdoc_iframes=${sum('iframes')} csp_reports=${sum('cspViolations')} violations=${bad.length}`,
  );
  expect(bad).toEqual([]);
}, 300_000);

test('pages carry a Content-Security-Policy that allows Stripe and nothing else foreign, and the usual security headers', async () => {
  const response = await fetch(`${storefront.url}/xss/shop`);
  const csp = response.headers.get('content-security-policy') ?? '';
  const foreign = [...csp.matchAll(/https?:\/\/[^\s;]+/g)]
    .map((m) => new URL(m[0].replace('*.', 'x.')).hostname)
    .filter((h) => !h.endsWith('stripe.com') && !h.endsWith('stripe.network'));
  console.log(
    `[reliability] security-headers: csp_directives=${csp.split(';').length} foreign_origins=${foreign.length} nosniff=${response.headers.get('x-content-type-options')} frame=${response.headers.get('x-frame-options')}`,
  );
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain('https://js.stripe.com');
  expect(csp).toMatch(/frame-src https:\/\/js\.stripe\.com https:\/\/hooks\.stripe\.com/);
  expect(foreign).toEqual([]);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
});

test('/refresh?to= only goes to same-origin paths', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const targets = [
    'https://evil.example/',
    '//evil.example/x',
    '/\\evil.example',
    'javascript:alert(1)',
    '\\\\evil.example',
    'http:evil.example',
    '/%2F%2Fevil.example',
    ' https://evil.example',
  ];
  const landed: string[] = [];
  let dialogs = 0;
  page.on('dialog', (d) => {
    dialogs++;
    void d.dismiss();
  });
  for (const to of targets) {
    await page
      .goto(`${storefront.url}/refresh?to=${encodeURIComponent(to)}`, { waitUntil: 'networkidle' })
      .catch(() => null);
    landed.push(new URL(page.url()).origin);
  }
  await page.goto(`${storefront.url}/refresh?to=${encodeURIComponent('/xss/shop')}`, { waitUntil: 'networkidle' });
  const sameOrigin = new URL(page.url());
  await context.close();
  const escaped = landed.filter((o) => o !== new URL(storefront.url).origin).length;
  console.log(
    `[reliability] refresh-redirect chromium: targets=${targets.length} escaped=${escaped} dialogs=${dialogs} violations=${escaped + dialogs}`,
  );
  expect(escaped).toBe(0);
  expect(dialogs).toBe(0);
  expect(sameOrigin.pathname).toBe('/xss/shop');
}, 120_000);

test('nothing of the restricted store is in the static build, its sitemaps or payloads', async () => {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else files.push(full);
    }
  };
  await walk(BUILDS_DIR);
  const leaks: string[] = [];
  for (const file of files) {
    const relative = path.relative(BUILDS_DIR, file);
    if (/(^|\/)vip(\/|$)/.test(relative)) leaks.push(relative);
    else if (/\.(html|json|xml|txt)$/.test(file) && /VIP Reserve|vip-reserve/.test(await readFile(file, 'utf8')))
      leaks.push(relative);
  }
  const search = await (await fetch(`${storefront.url}/api/store_front/acme/products?q=VIP`)).text();
  console.log(
    `[reliability] restricted-static-build: files=${files.length} leaks=${leaks.length} search_leak=${search.includes('VIP Reserve')} violations=${leaks.length + (search.includes('VIP Reserve') ? 1 : 0)}`,
  );
  expect(files.length).toBeGreaterThan(20);
  expect(leaks).toEqual([]);
  expect(search).not.toContain('VIP Reserve');
});
