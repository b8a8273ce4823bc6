/**
 * Tax and shipping by destination (docs/decisions/180-tax-and-shipping-by-destination.md): a store's
 * settings and a shipping address → the PricingRule that cart-math applies. Pure, so the rules are
 * unit-tested with named fixtures and the cart, checkout and finalize price an address alike.
 */
import type { PricingRule } from './cart-math.ts';

/** A rate for a whole country (`region` null) or for one of its states / provinces. */
export type TaxRate = { country: string; region: string | null; rateBps: number };

/** Countries shipped to at one rate, free from a threshold (null: never free); `*` is every country no zone lists. */
export type ShippingZone = {
  name: string;
  countries: readonly string[];
  rateCents: number;
  freeShippingThresholdCents: number | null;
};

export type StorePricing = {
  taxRates: readonly TaxRate[];
  shippingZones: readonly ShippingZone[];
  /** Tax where no rate names the destination. */
  defaultTaxRateBps: number;
  /** Shipping where no zone names the destination country, and the hint before an address is known. */
  defaultShipping: Pick<ShippingZone, 'rateCents' | 'freeShippingThresholdCents'>;
};

/** Where an order goes: a two-letter country and the region the address form stores (its code). */
export type Destination = { country: string; region: string };

/** The region's own rate, else the country's, else the store's default. */
export function taxRateFor(pricing: StorePricing, destination: Destination): number {
  const country = destination.country.toUpperCase();
  const region = destination.region.trim().toUpperCase();
  const ofCountry = pricing.taxRates.filter((rate) => rate.country === country);
  return (
    ofCountry.find((rate) => rate.region !== null && rate.region.toUpperCase() === region)?.rateBps ??
    ofCountry.find((rate) => rate.region === null)?.rateBps ??
    pricing.defaultTaxRateBps
  );
}

/** The zone that lists the country, else the one that lists `*`, else the store's default shipping. */
export function shippingFor(pricing: StorePricing, country: string): StorePricing['defaultShipping'] {
  const code = country.toUpperCase();
  const listing = (entry: string) => pricing.shippingZones.find((zone) => zone.countries.includes(entry));
  return listing(code) ?? listing('*') ?? pricing.defaultShipping;
}

/**
 * What a cart is priced with. Without a destination nothing that depends on it is charged — the
 * storefront shows "Calculated at checkout" for those rows — but the default threshold still tells
 * the shopper how far free shipping is.
 */
export function pricingRuleFor(pricing: StorePricing, destination: Destination | null): PricingRule {
  if (!destination) {
    return {
      taxRateBps: 0,
      shippingFlatCents: 0,
      freeShippingThresholdCents: pricing.defaultShipping.freeShippingThresholdCents,
    };
  }
  const shipping = shippingFor(pricing, destination.country);
  return {
    taxRateBps: taxRateFor(pricing, destination),
    shippingFlatCents: shipping.rateCents,
    freeShippingThresholdCents: shipping.freeShippingThresholdCents,
  };
}
