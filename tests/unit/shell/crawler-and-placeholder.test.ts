import { expect, test, vi } from 'vitest';
import { crawlerErrorResponse, isCrawler } from '../../../src/lib/crawler.ts';
import { isCompactPlaceholderPath, placeholderClass } from '../../../src/lib/placeholder-image.ts';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';

test.each([
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'facebookexternalhit/1.1',
  'Twitterbot/1.0',
  'Mozilla/5.0 (compatible; YandexBot/3.0)',
])('%s is a crawler', (ua) => {
  expect(isCrawler(ua)).toBe(true);
});

test('a browser is not a crawler', () => {
  expect(isCrawler(CHROME)).toBe(false);
  expect(isCrawler(null)).toBe(false);
});

test('a crawler gets the status with an empty body and the error is logged', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  const response = crawlerErrorResponse(
    new Request('http://x/nope', { headers: { 'user-agent': 'Googlebot/2.1' } }),
    404,
    'Page not found: /nope',
  );
  expect(response?.status).toBe(404);
  expect(await response?.text()).toBe('');
  expect(warn).toHaveBeenCalledWith(expect.stringContaining('Page not found: /nope'));
  warn.mockRestore();
});

test('a person gets no special answer (the page renders the error screen)', () => {
  expect(
    crawlerErrorResponse(new Request('http://x/nope', { headers: { 'user-agent': CHROME } }), 404, 'x'),
  ).toBeNull();
});

test('the placeholder is compact on order-confirmation, cart and checkout paths', () => {
  expect(['/acme/cart', '/checkout', '/acme/order-confirmation/1'].every(isCompactPlaceholderPath)).toBe(true);
  expect(isCompactPlaceholderPath('/acme/product/1')).toBe(false);
  expect(placeholderClass('small', '/acme/cart')).toBe(
    'placeholder-image placeholder-image--small placeholder-image--compact',
  );
  expect(placeholderClass('large', '/acme/shop')).toBe('placeholder-image placeholder-image--large');
});
