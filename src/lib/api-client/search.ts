/**
 * The search call (docs/decisions/191-search-engine.md). A module of its own, not in catalog.ts: the
 * header's instant results load it lazily, and sharing catalog.ts with the product page's islands
 * would split that into a chunk of its own on the product page (its 12 KB script budget).
 */
import type { Listing, ListingPage } from '../contract/answers.ts';
import type { SearchQuery } from '../contract/payloads.ts';
import { queryString } from './query-string.ts';
import { sf, type Requester } from './requester.ts';

/** GET store_front/{slug}/search?q= (extension): listings matching words, best match first. */
export const searchListings = (request: Requester, slug: string, query: SearchQuery) =>
  request<ListingPage<Listing>>('GET', `${sf(slug)}/search${queryString(query)}`);
