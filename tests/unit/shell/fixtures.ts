import type { StoreAttributes } from '../../../src/lib/contract/answers.ts';

/** A public store (no allowed lists). */
export const acme: StoreAttributes = {
  title: 'Acme Outfitters',
  slug: 'acme',
  faviconImage: '/favicon.svg',
  allowedListsPresent: false,
  description: null,
};

/** A restricted store (allowed lists present). */
export const vip: StoreAttributes = { ...acme, title: 'VIP Club', slug: 'vip', allowedListsPresent: true };
