/** /admin/{store}/products (owners and editors): the store's products, searched by name or SKU, 25 a page. */
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { formatCurrency } from '../../lib/money.ts';
import { SearchedList } from './SearchedList.tsx';
import { StaffGate } from './StoreGate.tsx';

export default function ProductList({ slug }: { slug: string }) {
  return (
    <StaffGate slug={slug}>
      {(store) => (
        <>
          <h1>Products of {store.title}</h1>
          <p>
            <a href={`/admin/${encodeURIComponent(slug)}/products/new`}>New product</a>
          </p>
          <SearchedList
            slug={slug}
            load={consoleApi.products}
            searchLabel="Search by name or SKU"
            listLabel="Products"
            empty={(q) => `No products match “${q}”.`}
          >
            {(product) => (
              <>
                <p>
                  <a href={`/admin/${encodeURIComponent(slug)}/products/${product.id}`}>{product.name}</a>
                  {product.featured && ' — featured'}
                  {product.archived && ' — archived (hidden from the storefront)'}
                  {product.low_stock && <span className="console__badge console__badge--warning">Low stock</span>}
                </p>
                <p className="console__hint">
                  {formatCurrency(product.price)} · {product.stock} in stock · SKU {product.skus.join(', ')}
                </p>
              </>
            )}
          </SearchedList>
        </>
      )}
    </StaffGate>
  );
}
