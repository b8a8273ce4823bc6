import { describe, expect, test } from 'vitest';
import {
  pricingRuleFor,
  shippingFor,
  taxRateFor,
  type StorePricing,
} from '../../src/server/domain/destination-pricing.ts';

// Named fixture: the demo store's settings, trimmed to what the rules below exercise.
const ACME: StorePricing = {
  taxRates: [
    { country: 'US', region: null, rateBps: 825 },
    { country: 'US', region: 'CA', rateBps: 725 },
    { country: 'US', region: 'OR', rateBps: 0 },
    { country: 'CA', region: null, rateBps: 500 },
    { country: 'CA', region: 'ON', rateBps: 1300 },
    { country: 'GB', region: null, rateBps: 2000 },
  ],
  shippingZones: [
    { name: 'United States', countries: ['US'], rateCents: 599, freeShippingThresholdCents: 7_500 },
    { name: 'Canada', countries: ['CA'], rateCents: 1_200, freeShippingThresholdCents: 15_000 },
    { name: 'Rest of the world', countries: ['*'], rateCents: 2_500, freeShippingThresholdCents: null },
  ],
  defaultTaxRateBps: 0,
  defaultShipping: { rateCents: 599, freeShippingThresholdCents: 7_500 },
};

describe('tax by destination', () => {
  test("a state's own rate wins over its country's", () => {
    expect(taxRateFor(ACME, { country: 'US', region: 'CA' })).toBe(725);
    expect(taxRateFor(ACME, { country: 'CA', region: 'ON' })).toBe(1300);
  });

  test('a rate of 0 for a state is a rate, not a missing one', () => {
    expect(taxRateFor(ACME, { country: 'US', region: 'OR' })).toBe(0);
  });

  test("a region without its own rate pays its country's", () => {
    expect(taxRateFor(ACME, { country: 'US', region: 'IL' })).toBe(825);
    expect(taxRateFor(ACME, { country: 'CA', region: 'AB' })).toBe(500);
    expect(taxRateFor(ACME, { country: 'GB', region: 'Westminster' })).toBe(2000);
  });

  test("a country without rates pays the store's default", () => {
    expect(taxRateFor(ACME, { country: 'JP', region: '13' })).toBe(0);
    expect(taxRateFor({ ...ACME, defaultTaxRateBps: 900 }, { country: 'JP', region: '13' })).toBe(900);
  });

  test('codes match whatever their case and spacing', () => {
    expect(taxRateFor(ACME, { country: 'us', region: ' ca ' })).toBe(725);
  });

  test("California's state code is not Canada's country code", () => {
    expect(taxRateFor(ACME, { country: 'CA', region: 'CA' })).toBe(500);
  });
});

describe('shipping by destination', () => {
  test("a listed country ships at its zone's rate and threshold", () => {
    expect(shippingFor(ACME, 'CA')).toMatchObject({ rateCents: 1_200, freeShippingThresholdCents: 15_000 });
  });

  test('an unlisted country ships in the * zone, wherever that zone sits in the list', () => {
    const reversed = { ...ACME, shippingZones: [...ACME.shippingZones].reverse() };
    expect(shippingFor(reversed, 'JP')).toMatchObject({ rateCents: 2_500 });
    expect(shippingFor(reversed, 'US')).toMatchObject({ rateCents: 599 });
  });

  test("without a * zone an unlisted country ships at the store's own rate", () => {
    const noRest = { ...ACME, shippingZones: ACME.shippingZones.slice(0, 2) };
    expect(shippingFor(noRest, 'JP')).toEqual(ACME.defaultShipping);
  });
});

describe('the rule a cart is priced with', () => {
  test('before an address nothing depending on it is charged, and the hint uses the store threshold', () => {
    expect(pricingRuleFor(ACME, null)).toEqual({
      taxRateBps: 0,
      shippingFlatCents: 0,
      freeShippingThresholdCents: 7_500,
    });
  });

  test("an address brings its state's tax and its zone's shipping", () => {
    expect(pricingRuleFor(ACME, { country: 'CA', region: 'ON' })).toEqual({
      taxRateBps: 1300,
      shippingFlatCents: 1_200,
      freeShippingThresholdCents: 15_000,
    });
  });
});
