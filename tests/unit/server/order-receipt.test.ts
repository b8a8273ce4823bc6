// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import type { CartItem, Order } from '../../../src/lib/contract/answers.ts';
import { orderPageUrl, renderOrderReceipt } from '../../../src/server/mail/order-receipt.ts';

const ORDER_ID = '7d1f0c9e-0000-4000-8000-000000000042';

function line(id: string, fields: Partial<CartItem> & { name: string; variant: string }): CartItem {
  const { name, variant, ...rest } = fields;
  return {
    id,
    quantity: 1,
    price: '10.00',
    unit_price: '10.00',
    bundle_id: null,
    bundle_details: null,
    product_details: { product_id: `p-${id}`, product_variant_id: `v-${id}`, name, variant_name: variant, image: null },
    ...rest,
  };
}

const kit = { id: 'b-7', name: 'Desk <b>Starter</b> Kit', quantity: 2, images: [] };

/** A product line with a variant, a bundle (×2) of two items, a one-variant product, a gift card and hostile text. */
const order: Order = {
  orderDetails: {
    id: ORDER_ID,
    number: 'A-10042',
    createdAt: '2026-11-21T06:00:00Z',
    status: 'paid',
    storeSlug: 'acme',
    cartItems: [
      line('l-1', {
        name: 'Classic Cotton Tee',
        variant: 'M / Navy',
        quantity: 2,
        price: '1234.50',
        unit_price: '617.25',
      }),
      line('l-2', {
        name: 'Notebook',
        variant: 'A5 / Dotted',
        quantity: 4,
        price: '18.00',
        unit_price: '4.50',
        bundle_id: 'b-7',
        bundle_details: kit,
      }),
      line('l-3', {
        name: 'Pen',
        variant: 'Default',
        quantity: 2,
        price: '6.00',
        unit_price: '3.00',
        bundle_id: 'b-7',
        bundle_details: kit,
      }),
      line('l-4', {
        name: 'Poster <script>alert(1)</script>',
        variant: 'Default',
        quantity: 1,
        price: '15.50',
        unit_price: '15.50',
      }),
    ],
    cartLineItemsSize: 5,
    subTotal: '1274.00',
    tax: '101.92',
    shippingFee: '5.00',
    giftCards: [{ id: 'g-1', code: 'ACME-25', amount: '25.00' }],
    total: '1355.92',
    address: {
      first_name: 'Ada',
      last_name: 'Lovelace & <Co>',
      email: 'ada@example.com',
      address_line1: '12 Analytical Way',
      address_line2: 'Apt "4"',
      city: 'Springfield',
      country: 'US',
      state: 'IL',
      zip: '62701',
      phone: '+1 217 555 0100',
    },
  },
  paymentIntent: null,
};

const store = { title: "Tom & Jerry's <Shop>", slug: 'acme', custom_domain: null };
const SITE = 'http://shop.test';

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');
const squash = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

describe('the order confirmation mail', () => {
  const mail = renderOrderReceipt(store, order, SITE);
  const doc = parse(mail.html);
  const htmlText = squash(doc.body.textContent);

  test('the subject names the store and the order number', () => {
    expect(mail.subject).toBe("Your Tom & Jerry's <Shop> order A-10042");
  });

  test('the text part has the store, the number, every line with its variant and each bundle item, the amounts, the address and the link', () => {
    const text = mail.text;
    expect(text).toContain("Tom & Jerry's <Shop>: order A-10042, placed 11/21/2026");
    expect(text).toMatch(/2 × Classic Cotton Tee \(M \/ Navy\) +\$1,234\.50/);
    expect(text).toMatch(/2 × Desk <b>Starter<\/b> Kit +\$24\.00/);
    expect(text).toContain('      4 × Notebook (A5 / Dotted)');
    expect(text).toContain('      2 × Pen\n');
    expect(text).toMatch(/1 × Poster <script>alert\(1\)<\/script> +\$15\.50/);
    expect(text).toMatch(/Subtotal +\$1,274\.00/);
    expect(text).toMatch(/Tax +\$101\.92/);
    expect(text).toMatch(/Shipping +\$5\.00/);
    expect(text).toMatch(/Gift card ACME-25 +-\$25\.00/);
    expect(text).toMatch(/Total +\$1,355\.92/);
    expect(text).toContain(
      [
        'Shipping address',
        '  Ada Lovelace & <Co>',
        '  12 Analytical Way',
        '  Apt "4"',
        '  Springfield, Illinois 62701',
        '  United States',
        '  +1 217 555 0100',
        '  ada@example.com',
      ].join('\n'),
    );
    expect(text).toContain(`View your order: http://shop.test/acme/order/${ORDER_ID}`);
  });

  test('the HTML part shows the same facts', () => {
    for (const fact of [
      "Tom & Jerry's <Shop>",
      'Thank you for your order!',
      'A-10042',
      '11/21/2026',
      '2 × Classic Cotton Tee (M / Navy)',
      '$1,234.50',
      '2 × Desk <b>Starter</b> Kit',
      '$24.00',
      '4 × Notebook (A5 / Dotted)',
      '2 × Pen',
      '1 × Poster <script>alert(1)</script>',
      '$15.50',
      'Subtotal',
      '$1,274.00',
      'Tax',
      '$101.92',
      'Shipping',
      '$5.00',
      'Gift card ACME-25',
      '-$25.00',
      'Total',
      '$1,355.92',
      'Ada Lovelace & <Co>',
      '12 Analytical Way',
      'Apt "4"',
      'Springfield, Illinois 62701',
      'United States',
      '+1 217 555 0100',
      'ada@example.com',
    ]) {
      expect(htmlText).toContain(fact);
    }
    const links = [...doc.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual([`http://shop.test/acme/order/${ORDER_ID}`, `http://shop.test/acme/order/${ORDER_ID}`]);
    expect(doc.title).toBe(mail.subject);
  });

  test('everything that comes from data is escaped in the HTML part', () => {
    expect(mail.html).not.toContain('<script');
    expect(mail.html).not.toContain('<b>Starter');
    expect(mail.html).not.toContain('<Co>');
    expect(mail.html).not.toContain('<Shop>');
    expect(mail.html).toContain('Tom &amp; Jerry&#x27;s &lt;Shop&gt;');
    expect(mail.html).toContain('Poster &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(doc.querySelectorAll('script, b')).toHaveLength(0);
    expect(mail.html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
  });

  test('a bundle lists its items under it, in the HTML as in the text', () => {
    const bundleRow = [...doc.querySelectorAll('tr')].find(
      (tr) => tr.textContent?.includes('Desk <b>Starter</b> Kit') && tr.querySelector('ul'),
    );
    expect([...bundleRow!.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '4 × Notebook (A5 / Dotted)',
      '2 × Pen',
    ]);
  });
});

describe('the link to the order page', () => {
  test('is under /{slug} on PUBLIC_SITE_URL for a store without its own domain', () => {
    expect(orderPageUrl({ slug: 'acme', custom_domain: null }, ORDER_ID, 'https://shop.example.com')).toBe(
      `https://shop.example.com/acme/order/${ORDER_ID}`,
    );
  });

  test("is on the store's own domain, unprefixed, with the site's scheme and port, when the store has one", () => {
    expect(orderPageUrl({ slug: 'acme', custom_domain: 'shop.acme.test' }, ORDER_ID, 'http://localhost:4321')).toBe(
      `http://shop.acme.test:4321/order/${ORDER_ID}`,
    );
    const mail = renderOrderReceipt(
      { title: 'Acme', slug: 'acme', custom_domain: 'shop.acme.test' },
      order,
      'https://shop.example.com',
    );
    expect(mail.text).toContain(`View your order: https://shop.acme.test/order/${ORDER_ID}`);
  });
});

test('an order paid by card without gift cards shows no gift card row', () => {
  const mail = renderOrderReceipt(store, { ...order, orderDetails: { ...order.orderDetails, giftCards: [] } }, SITE);
  expect(mail.text).not.toContain('Gift card');
  expect(mail.html).not.toContain('Gift card');
});
