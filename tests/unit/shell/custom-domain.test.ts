import { describe, expect, test } from 'vitest';
import { isCustomDomain, normalizeHost } from '../../../src/lib/custom-domain.ts';

const config = { platformDomain: 'onrender.com', shopDomain: 'shop.example.com' };

describe('a host is a custom store domain only if (spec §5)…', () => {
  test.each(['shop.acme.test', 'shop.acme.test:4321', 'www.brand.co.uk', 'SHOP.ACME.TEST'])(
    '%s: three or more labels, not ours',
    (host) => {
      expect(isCustomDomain(host, config)).toBe(true);
    },
  );

  test.each(['localhost', 'localhost:4321', 'acme.test', 'example.com:80'])(
    '%s: fewer than three labels is not',
    (host) => {
      expect(isCustomDomain(host, config)).toBe(false);
    },
  );

  test.each(['my-app.onrender.com', 'a.b.onrender.com', 'onrender.com'])(
    '%s: on the platform domain is not',
    (host) => {
      expect(isCustomDomain(host, config)).toBe(false);
    },
  );

  test.each(['shop.example.com', 'eu.shop.example.com'])('%s: on the shop domain is not', (host) => {
    expect(isCustomDomain(host, config)).toBe(false);
  });

  test.each(['127.0.0.1', '127.0.0.1:4420', '[::1]:4420', 'bad_label.acme.test', '-x.acme.test', '', 'a..b.c'])(
    '%s: not a hostname is not',
    (host) => {
      expect(isCustomDomain(host, config)).toBe(false);
    },
  );

  test('without configured domains any three-label hostname is one', () => {
    expect(isCustomDomain('shop.example.com', {})).toBe(true);
    expect(isCustomDomain(null, {})).toBe(false);
  });
});

test('normalizeHost lower-cases and drops the port and a trailing dot', () => {
  expect(normalizeHost('Shop.Acme.Test.:8080')).toBe('shop.acme.test');
});
