import { describe, expect, test } from 'vitest';
import { NO_FILTERS } from '../../../src/lib/page-data/listing-filters.ts';
import { loadSearch, parseSearchQuery, searchQueryString } from '../../../src/lib/page-data/search.ts';
import { searchTerms } from '../../../src/server/catalog/search-query.ts';
import { kitchenSink, stubCatalogApi } from './fixtures/stub-catalog-api.ts';

describe('the search results page’s URL', () => {
  test('reads query, sort and page leniently: bad values fall back to best match, page 1', () => {
    expect(parseSearchQuery(new URLSearchParams('q=%20mug%20&sort=-price&page=2'))).toEqual({
      q: 'mug',
      sort: '-price',
      page: 2,
      filters: NO_FILTERS,
    });
    expect(parseSearchQuery(new URLSearchParams('sort=drop table&page=-1'))).toEqual({
      q: '',
      sort: 'relevance',
      page: 1,
      filters: NO_FILTERS,
    });
    expect(parseSearchQuery(new URLSearchParams(`q=${'x'.repeat(500)}`)).q).toHaveLength(100);
  });

  test('writes defaults out, so the URL holds only what the shopper chose', () => {
    expect(searchQueryString({ q: 'mug', sort: 'relevance', page: 1 })).toBe('?q=mug');
    expect(searchQueryString({ q: 'red mug', sort: 'price', page: 3 })).toBe('?q=red+mug&sort=price&page=3');
    expect(searchQueryString({})).toBe('');
    const filters = { ...NO_FILTERS, priceMax: '30', options: ['Size:M'] };
    expect(searchQueryString({ q: 'shirt', sort: 'relevance', page: 2, filters })).toBe(
      '?q=shirt&price_max=30&option=Size%3AM&page=2',
    );
    expect(parseSearchQuery(new URLSearchParams('q=shirt&price_max=30&option=Size%3AM')).filters).toEqual(filters);
  });
});

describe('loading the results page', () => {
  test('asks the search call with the sort the shopper chose, best match by leaving it out', async () => {
    const api = stubCatalogApi(kitchenSink());
    await loadSearch(api, 'acme', { q: 'mug', sort: 'relevance', page: 1, filters: NO_FILTERS });
    await loadSearch(api, 'acme', { q: 'mug', sort: '-price', page: 2, filters: NO_FILTERS });
    expect(api.calls).toEqual([
      'searchListings acme {"q":"mug","page":1,"per_page":48}',
      'searchListings acme {"q":"mug","page":2,"per_page":48,"sort":"-price"}',
    ]);
  });

  test('nothing found, or nothing asked, offers the featured items', async () => {
    const api = stubCatalogApi(kitchenSink());
    const none = await loadSearch(api, 'acme', { q: 'zzz', sort: 'relevance', page: 1, filters: NO_FILTERS });
    expect(none.items).toEqual([]);
    expect(none.featured.map((card) => card.name)).toEqual(['Shirt', 'Starter kit']);
    const empty = await loadSearch(api, 'acme', { q: '', sort: 'relevance', page: 1, filters: NO_FILTERS });
    expect(empty.featured).toHaveLength(2);
    expect(api.calls.filter((call) => call.startsWith('searchListings'))).toHaveLength(1);
    const found = await loadSearch(api, 'acme', { q: 'mug', sort: 'relevance', page: 1, filters: NO_FILTERS });
    expect(found.items.map((card) => card.name)).toEqual(['Mug']);
    expect(found.featured).toEqual([]);
  });
});

describe('the words of a search query', () => {
  test('lower-cased, deduplicated, punctuation dropped, any script', () => {
    expect(searchTerms('  Stoneware, MUG! mug ')).toEqual(['stoneware', 'mug']);
    expect(searchTerms("'; drop table--")).toEqual(['drop', 'table']);
    expect(searchTerms('Café コーヒー 🙂')).toEqual(['café', 'コーヒー']);
    expect(searchTerms('?!…')).toEqual([]);
  });

  test('at most eight words count', () => {
    expect(searchTerms('a b c d e f g h i j')).toHaveLength(8);
  });
});
