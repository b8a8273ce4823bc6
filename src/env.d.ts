/// <reference types="astro/client" />

declare namespace App {
  type Locals = {
    /** The store of a store page (set by src/middleware.ts); null on store-less pages. */
    store: import('./lib/contract/answers.ts').StoreAttributes | null;
    /** Prefix of store links: '/acme', or '' on a custom domain (see lib/store-links.ts). */
    linkBase: string;
    /**
     * The custom store domain of this request, else null. Handed in by the Node front
     * (src/front/front-server.ts), as are `prerender`, `api`, `siteUrl`, `publicEnv` and `storeOutcome`; under
     * `astro dev` nothing hands them in and the middleware fills the defaults.
     */
    customDomain: string | null;
    /** True for build-time snapshot renders: no cookies, no per-shopper data. */
    prerender: boolean;
    /** The API a render calls: its base URL and the `fetch` that reaches it (in process under the Node front). */
    api: import('./lib/page-data/request-api.ts').RenderApi;
    /** The `PUBLIC_*` settings as the server runs now (rendered into pages, see lib/public-settings.ts). */
    publicEnv: import('./lib/public-settings.ts').PublicEnv;
    /** The site's public origin (`PUBLIC_SITE_URL`) for canonical, Open Graph and sitemap URLs, if set. */
    siteUrl?: string;
    /** The store the front already fetched for a custom domain, so the middleware does not ask again. */
    storeOutcome?: import('./lib/store-loading.ts').FetchOutcome;
    /** Set when a route rule rejected the request; the /404 page shows it. */
    pageError?: { status: number; message: string };
    /** Set once a crawler got the status alone for an error (src/middleware.ts), so it is logged once. */
    crawlerAnswered?: boolean;
  };
}

type ImportMetaEnv = {
  readonly PUBLIC_API_BASE_URL?: string;
};
