/** Limits the API enforces and the storefront's controls respect; zod-free so islands can import them. */

/** At most this many of one item (a variant, or a bundle) in a cart. */
export const MAX_QUANTITY = 99;

/** As many ids as one list page holds (`per_page` ≤ 500), so one bulk call (variants, items…) covers a page. */
export const MAX_BULK_IDS = 500;

/** Images one product may have: the gallery's CSS has one rule per position (Gallery.astro). */
export const MAX_PRODUCT_IMAGES = 12;
