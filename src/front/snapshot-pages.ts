import { createRequester } from '../lib/api-client/index.ts';
import { headerCookieJar } from '../lib/cookies.ts';
import { catalogApi } from '../lib/page-data/catalog-api.ts';
import { listCatalogPaths, loadCatalogPayload } from '../lib/page-data/catalog-pages.ts';
import type { SnapshotPage } from './snapshot.ts';

/**
 * Every page of the public stores' catalogs, with its payload loader. Reaches the API over HTTP
 * like the pages do, with no shopper cookies, so only public data can end up in the snapshot.
 */
export async function snapshotPages(baseUrl: string, publicSlugs: string[]): Promise<SnapshotPage[]> {
  const api = catalogApi(createRequester({ baseUrl: new URL('/api/', baseUrl).href, cookies: headerCookieJar(null) }));
  const pages: SnapshotPage[] = [];
  for (const slug of publicSlugs) {
    for (const path of await listCatalogPaths(api, slug)) {
      pages.push({ path, payload: () => loadCatalogPayload(api, path) });
    }
  }
  return pages;
}
