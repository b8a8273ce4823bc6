import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { BENCH } from './bench-env.ts';
import { splitByOwner, type Owner, type SourceMapLike } from './source-map-split.ts';
import type { StoreFixtures } from './shopper-fixtures.ts';

export type Sizes = {
  raw: number;
  gzip: number;
  brotli: number;
};

export type PageJs = {
  page: string;
  path: string;
  files: ({ url: string } & Sizes & { split: Record<Owner, number> })[];
  inline: Sizes;
  total: Sizes;
  /** gzip bytes per owner (each file's gzip size shared out in proportion to its characters). */
  gzipByOwner: Record<Owner, number>;
  brotliByOwner: Record<Owner, number>;
  /** External scripts in the HTML that block parsing (no module/async/defer). */
  blockingScripts: string[];
  /** Scripts that answered an error: the figures of such a page mean nothing. */
  failedScripts?: string[];
};

const gzip = (data: Buffer) => gzipSync(data, { level: 9 }).length;
const brotli = (data: Buffer) => brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const sizes = (data: Buffer): Sizes =>
  data.length ? { raw: data.length, gzip: gzip(data), brotli: brotli(data) } : { raw: 0, gzip: 0, brotli: 0 };

/** Inline `<script>`s of a document, except JSON data blocks (JSON-LD, island props). */
function inlineScripts(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1] ?? '';
    if (/\bsrc\s*=/.test(attrs) || /type\s*=\s*["']?application\/(ld\+)?json/i.test(attrs)) continue;
    if (m[2]!.trim()) out.push(m[2]!);
  }
  return out;
}

async function splitOf(url: string, body: Buffer): Promise<Record<Owner, number>> {
  const pathname = new URL(url).pathname;
  const code = body.toString('utf8');
  try {
    const map = JSON.parse(
      await readFile(path.join(BENCH.distDir, 'client', `${decodeURIComponent(pathname)}.map`), 'utf8'),
    ) as SourceMapLike;
    return splitByOwner(code, map);
  } catch {
    // No map (a build without ASTRO_SOURCEMAP, or the bundler's runtime): guess from known markers.
    const framework =
      pathname.includes('rolldown-runtime') ||
      /react\.transitional\.element|__CLIENT_INTERNALS_DO_NOT_USE|unstable_scheduleCallback|astro-island/.test(code);
    return { framework: framework ? code.length : 0, libs: 0, ours: framework ? 0 : code.length };
  }
}

function share(total: number, split: Record<Owner, number>): Record<Owner, number> {
  const sum = split.framework + split.libs + split.ours || 1;
  return {
    framework: (total * split.framework) / sum,
    libs: (total * split.libs) / sum,
    ours: (total * split.ours) / sum,
  };
}

/** Loads one page like a shopper (scrolls so `client:visible` islands hydrate, waits for idle) and sums its scripts. */
async function measurePage(
  browser: Browser,
  baseUrl: string,
  name: string,
  pagePath: string,
  cartToken: string,
): Promise<PageJs> {
  const context = await browser.newContext();
  await context.addCookies([{ name: 'recipient-token', value: cartToken, url: baseUrl }]);
  const page = await context.newPage();
  const scripts = new Map<string, Promise<Buffer>>();
  const failedScripts: string[] = [];
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (response.request().resourceType() === 'script' && response.status() >= 400)
      failedScripts.push(`${new URL(response.url()).pathname} (${response.status()})`);
    if (response.request().resourceType() === 'script' || type.includes('javascript')) {
      if (!scripts.has(response.url()))
        scripts.set(
          response.url(),
          response.body().catch(() => Buffer.alloc(0)),
        );
    }
  });
  const response = await page.goto(baseUrl + pagePath, { waitUntil: 'load' });
  const html = (await response?.text()) ?? '';
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(() => resolve(null)));
    }
  });
  await page.waitForLoadState('networkidle');
  // client:idle waits for requestIdleCallback; give it an idle period, then wait for what it loads.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => resolve(null), { timeout: 2000 })));
  await page.waitForLoadState('networkidle');
  const blockingScripts = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLScriptElement>('script[src]')]
      .filter((s) => s.type !== 'module' && !s.async && !s.defer)
      .map((s) => s.src),
  );
  await context.close();

  const files: PageJs['files'] = [];
  const gzipByOwner: Record<Owner, number> = { framework: 0, libs: 0, ours: 0 };
  const brotliByOwner: Record<Owner, number> = { framework: 0, libs: 0, ours: 0 };
  for (const [url, bodyPromise] of scripts) {
    const body = await bodyPromise;
    if (!body.length) continue;
    const s = sizes(body);
    const split = await splitOf(url, body);
    files.push({ url: new URL(url).pathname, ...s, split });
    for (const [owner, value] of Object.entries(share(s.gzip, split))) gzipByOwner[owner as Owner] += value;
    for (const [owner, value] of Object.entries(share(s.brotli, split))) brotliByOwner[owner as Owner] += value;
  }
  const inlineList = inlineScripts(html);
  const inline = sizes(Buffer.from(inlineList.join('\n')));
  // Astro's island loader is inlined into pages with islands: framework; other inline scripts are ours.
  const astroInline = sizes(
    Buffer.from(
      inlineList.filter((s) => /astro-island|self\.Astro|Astro\.(idle|visible|load|only)/.test(s)).join('\n'),
    ),
  );
  gzipByOwner.framework += astroInline.gzip;
  gzipByOwner.ours += inline.gzip - astroInline.gzip;
  brotliByOwner.framework += astroInline.brotli;
  brotliByOwner.ours += inline.brotli - astroInline.brotli;
  const total: Sizes = {
    raw: files.reduce((a, f) => a + f.raw, 0) + inline.raw,
    gzip: files.reduce((a, f) => a + f.gzip, 0) + inline.gzip,
    brotli: files.reduce((a, f) => a + f.brotli, 0) + inline.brotli,
  };
  return {
    page: name,
    path: pagePath,
    files,
    inline,
    total,
    gzipByOwner,
    brotliByOwner,
    blockingScripts,
    failedScripts,
  };
}

/** JavaScript each page type loads, measured in headless Chromium. */
export async function measureJs(
  baseUrl: string,
  pages: Record<string, string | null>,
  fixtures: Pick<StoreFixtures, 'cartToken'>,
): Promise<PageJs[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const results: PageJs[] = [];
    for (const [name, pagePath] of Object.entries(pages)) {
      if (!pagePath) continue;
      results.push(await measurePage(browser, baseUrl, name, pagePath, fixtures.cartToken));
    }
    return results;
  } finally {
    await browser.close();
  }
}
