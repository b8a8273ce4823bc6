import { describe, expect, test } from 'vitest';
import { robotsTxt, sitemapLinks, sitemapXml } from '../../../src/lib/catalog/sitemap.ts';
import { bundleJsonLd, itemListJsonLd, jsonLdText, plainText, productJsonLd } from '../../../src/lib/catalog/seo.ts';
import { storeLinks } from '../../../src/lib/store-links.ts';
import { sanitizeDescription } from '../../../src/lib/catalog/sanitize-description.ts';
import { loadBundle } from '../../../src/lib/page-data/bundle.ts';
import { loadProduct } from '../../../src/lib/page-data/product.ts';
import { siteOrigin } from '../../../src/lib/page-data/request-api.ts';
import { kitchenSink, stubCatalogApi } from './fixtures/stub-catalog-api.ts';

const paths = ['/acme', '/acme/shop', '/acme/product/1', '/acme/product-bundle/7', '/acme/sitemap.xml'];

describe('sitemap', () => {
  test('lists the store’s pages under its prefix, without the sitemap itself', () => {
    expect(sitemapLinks(paths, 'acme', '/acme')).toEqual([
      '/acme',
      '/acme/shop',
      '/acme/product/1',
      '/acme/product-bundle/7',
    ]);
  });

  test('on the store’s own domain the links have no prefix', () => {
    expect(sitemapLinks(paths, 'acme', '')).toEqual(['/', '/shop', '/product/1', '/product-bundle/7']);
  });

  test('writes escaped absolute URLs in the sitemap namespace', () => {
    const xml = sitemapXml(['https://shop.example/acme', 'https://shop.example/acme/shop?a=1&b=2']);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).toContain('<loc>https://shop.example/acme/shop?a=1&amp;b=2</loc>');
  });
});

describe('robots.txt', () => {
  test('the shared host disallows per-shopper pages under every store prefix', () => {
    const text = robotsTxt({ prefixed: true });
    expect(text).toContain('Disallow: /*/cart');
    expect(text).toContain('Disallow: /*/checkout');
    expect(text).not.toContain('Sitemap:');
    expect(text).not.toMatch(/^Disallow: \/$/m);
  });

  test('a custom domain names its sitemap; a restricted store is closed to crawlers', () => {
    expect(robotsTxt({ prefixed: false, sitemap: 'https://shop.acme.test/sitemap.xml' })).toContain(
      'Sitemap: https://shop.acme.test/sitemap.xml',
    );
    expect(robotsTxt({ prefixed: false, disallowAll: true })).toMatch(/^Disallow: \/$/m);
  });
});

describe('structured data and descriptions', () => {
  test('a product has one USD offer per variant with its availability', async () => {
    const data = (await loadProduct(stubCatalogApi(kitchenSink()), { slug: 'acme', id: '1' }))!;
    const ld = productJsonLd(data, 'https://x.test/acme/product/1', 'https://x.test') as {
      offers: Record<string, string>[];
      image: string[];
    };
    expect(ld.offers.map((o) => [o.price, o.priceCurrency, o.availability])).toEqual([
      ['20.00', 'USD', 'https://schema.org/InStock'],
      ['22.00', 'USD', 'https://schema.org/OutOfStock'],
      ['22.00', 'USD', 'https://schema.org/InStock'],
    ]);
    expect(ld.image[0]).toBe('https://x.test/img/shirt-front.jpg');
  });

  test('each offer names its variant’s SKU and its own page address', async () => {
    const data = (await loadProduct(stubCatalogApi(kitchenSink()), { slug: 'acme', id: '1' }))!;
    const ld = productJsonLd(data, 'https://x.test/acme/product/1', 'https://x.test') as {
      offers: Record<string, string>[];
    };
    expect(ld.offers.map((o) => [o.sku, o.url])).toEqual([
      ['SKU-11', 'https://x.test/acme/product/1?variant=11'],
      ['SKU-12', 'https://x.test/acme/product/1?variant=12'],
      ['SKU-13', 'https://x.test/acme/product/1?variant=13'],
    ]);
  });

  test('a listing is an ItemList of its items’ canonical pages, positions from 1', () => {
    const cards = [
      { kind: 'product' as const, id: '1', name: 'Shirt' },
      { kind: 'bundle' as const, id: '7', name: 'Starter kit' },
    ];
    expect(itemListJsonLd(cards, storeLinks('https://shop.acme.test'))).toEqual({
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      numberOfItems: 2,
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Shirt', url: 'https://shop.acme.test/product/1' },
        { '@type': 'ListItem', position: 2, name: 'Starter kit', url: 'https://shop.acme.test/product-bundle/7' },
      ],
    });
  });

  test('a bundle is one offer at its total', async () => {
    const data = (await loadBundle(stubCatalogApi(kitchenSink()), { slug: 'acme', id: '7' }))!;
    expect(bundleJsonLd(data, 'https://x.test/acme/product-bundle/7', 'https://x.test')).toMatchObject({
      '@type': 'Product',
      offers: { price: '29.50' },
    });
  });

  test('JSON-LD text cannot close its script tag', () => {
    expect(jsonLdText({ name: '</script><script>alert(1)</script>' })).not.toContain('</script>');
  });

  test('descriptions are sanitised again at render: scripts and handlers go, formatting stays', () => {
    const html = sanitizeDescription(
      '<p onclick="x()">Soft <strong>cotton</strong><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a></p>',
    );
    expect(html).toBe('<p>Soft <strong>cotton</strong><a rel="nofollow noopener noreferrer">x</a></p>');
  });

  test('meta descriptions are plain text, shortened', () => {
    expect(plainText('<p>Soft &amp; warm</p><ul><li>100% cotton</li></ul>')).toBe('Soft & warm 100% cotton');
    expect(plainText('a'.repeat(300))).toHaveLength(160);
  });
});

describe('absolute URLs for canonical, Open Graph and sitemap', () => {
  const url = new URL('http://127.0.0.1:4321/acme/product/1');
  test('a configured PUBLIC_SITE_URL wins over the snapshot’s loopback origin', () => {
    expect(siteOrigin(url, null, 'https://shop.example.com/')).toBe('https://shop.example.com');
    expect(siteOrigin(url, null, undefined)).toBe('http://127.0.0.1:4321');
  });
  test('on a custom domain the store’s own host is the origin', () => {
    expect(siteOrigin(new URL('http://shop.acme.test:4430/acme/shop'), 'shop.acme.test', 'https://x.test')).toBe(
      'http://shop.acme.test:4430',
    );
    expect(siteOrigin(url, 'shop.acme.test', undefined)).toBe('http://shop.acme.test');
  });
});
