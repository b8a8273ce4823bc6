/**
 * Every page type is valid HTML as the Nu Html Checker (vnu-jar, the W3C validator) reads it, served
 * as a shopper gets it. Java comes from Debian (default-jre-headless) when the machine lacks it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ensureDebianBinary } from '../../scripts/debian-package.ts';
import { CartApi, SLUG } from './fixtures/cart-page.ts';

const JAVA = process.env.JAVA_PATH ?? '/usr/bin/java';
const VNU_JAR = String(createRequire(import.meta.url)('vnu-jar'));

type VnuMessage = { type: string; url: string; message: string; extract?: string };

test('every page type has 0 errors in the Nu Html Checker', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  ensureDebianBinary(JAVA, 'default-jre-headless', 'JAVA_PATH');
  const shopper = new CartApi(page.request, page.context(), baseURL!);
  const { variant } = await shopper.firstVariant();
  const order = await shopper.buy(variant.id, 1);
  await shopper.addVariant(variant.id, 1);
  const bundle = await shopper.firstBundle();
  const pages = {
    'store front': `/${SLUG}`,
    shop: `/${SLUG}/shop`,
    'shop, searched': `/${SLUG}/shop?q=mug&sort=-price`,
    'shop, filtered': `/${SLUG}/shop?in_stock=true&price_min=10&price_max=200&option=Size%3AM&sort=newest`,
    'shop, filtered to nothing': `/${SLUG}/shop?option=Size%3ANone`,
    'search results': `/${SLUG}/search?q=coffee&sort=-price`,
    'search, nothing found': `/${SLUG}/search?q=zzqqxxv`,
    product: `/${SLUG}/product/${variant.attributes.product_id}`,
    bundle: `/${SLUG}/product-bundle/${bundle.id}`,
    cart: `/${SLUG}/cart`,
    checkout: `/${SLUG}/checkout`,
    order: `/${SLUG}/order/${order.orderDetails.id}`,
    'order confirmation': `/${SLUG}/order-confirmation/${order.orderDetails.id}`,
    policy: `/${SLUG}/policies/returns`,
    collection: `/${SLUG}/collections/home`,
    restricted: '/vip/restricted',
    'not found': `/${SLUG}/no-such-page`,
  };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vnu-'));
  try {
    const files: Record<string, string> = {};
    for (const [name, url] of Object.entries(pages)) {
      const response = await page.request.get(url);
      expect(response.status(), name).toBe(name === 'not found' ? 404 : 200);
      const file = path.join(dir, `${name.replaceAll(/\W+/g, '-')}.html`);
      await writeFile(file, await response.text());
      files[file] = name;
    }
    let report: { messages: VnuMessage[] };
    try {
      execFileSync(JAVA, ['-jar', VNU_JAR, '--errors-only', '--format', 'json', ...Object.keys(files)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      report = { messages: [] };
    } catch (error) {
      // vnu exits 1 when it found errors and writes its JSON report to stderr.
      report = JSON.parse((error as { stderr: string }).stderr) as { messages: VnuMessage[] };
    }
    const errors = report.messages
      .filter((m) => m.type === 'error')
      .map((m) => `${files[new URL(m.url).pathname] ?? m.url}: ${m.message} ${m.extract ?? ''}`);
    expect(errors).toEqual([]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
