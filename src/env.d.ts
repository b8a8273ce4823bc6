/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The store of a store page (set by src/middleware.ts); null on store-less pages. */
    store: import('./lib/api-types.ts').StoreAttributes | null;
    /** Prefix of store links: '/acme', or '' on a custom domain (see lib/store-links.ts). */
    linkBase: string;
    /** The custom store domain of this request (front's `x-store-domain`), else null. */
    customDomain: string | null;
    /** True for build-time snapshot requests (`x-prerender: 1`): no cookies, no per-shopper data. */
    prerender: boolean;
    /** Set when a route rule rejected the request; the /404 page shows it. */
    pageError?: { status: number; message: string };
  }
}

interface ImportMetaEnv {
  readonly PUBLIC_API_BASE_URL?: string;
}
