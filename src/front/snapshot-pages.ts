import { createRequester } from '../lib/api-client/index.ts';
import { headerCookieJar } from '../lib/cookies.ts';
import { catalogApi } from '../lib/page-data/catalog-api.ts';
import { catalogPaths, loadCatalogPayload, type CatalogIds } from '../lib/page-data/catalog-pages.ts';
import type { RenderApi } from '../lib/page-data/request-api.ts';
import type { SnapshotPage } from './snapshot.ts';

/**
 * Every page of the public stores' catalogs, with its payload loader, as the catalog is listed: a build
 * sorts the first pages while the rest are listed (src/front/snapshot.ts). Reaches the API as the pages'
 * renders do (`api`: in process, through the snapshot's memo of anonymous catalog reads, see
 * docs/decisions/060-benchmarks-and-budgets.md), with no shopper cookies, so only public data can end up
 * in the snapshot. `known`: each store's products and bundles when they need not be listed (catalog-pages.ts).
 */
export async function* snapshotPages(
  api: RenderApi,
  publicSlugs: string[],
  known?: ReadonlyMap<string, CatalogIds>,
): AsyncGenerator<SnapshotPage> {
  const catalog = catalogApi(
    createRequester({ baseUrl: api.baseUrl, fetch: api.fetch, cookies: headerCookieJar(null) }),
  );
  for (const slug of publicSlugs)
    for await (const path of catalogPaths(catalog, slug, { known: known?.get(slug) }))
      yield { path, payload: () => loadCatalogPayload(catalog, path) };
}
