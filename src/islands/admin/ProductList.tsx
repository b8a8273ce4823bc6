/** /admin/{store}/products (owners and editors): the store's products, searched by name or SKU, 25 a page. */
import { useEffect, useState, type SubmitEvent } from 'react';
import type { ConsoleProductSummary, Many } from '../../lib/contract/answers.ts';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { formatCurrency } from '../../lib/money.ts';
import { TextField } from '../forms/TextField.tsx';
import { Pager, pagesOf } from './Pager.tsx';
import { StaffGate } from './StoreGate.tsx';

function Products({ slug }: { slug: string }) {
  const [query, setQuery] = useState({ q: '', page: 1 });
  const [typed, setTyped] = useState('');
  const [answer, setAnswer] = useState<Many<ConsoleProductSummary> | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    consoleApi
      .products(slug, query.q, query.page)
      .then((next) => {
        setFailure(null);
        setAnswer(next);
      })
      .catch((error: unknown) => setFailure(error instanceof Error ? error.message : String(error)));
  }, [slug, query]);

  function onSearch(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setQuery({ q: typed.trim(), page: 1 });
  }

  return (
    <>
      <form role="search" className="console__form" noValidate onSubmit={onSearch}>
        <TextField
          name="q"
          label="Search by name or SKU"
          type="search"
          value={typed}
          onValueChange={setTyped}
          delay={0}
        />
        <button type="submit" className="button">
          Search
        </button>
      </form>
      {failure && (
        <div className="alert alert--error" role="alert">
          {failure}
        </div>
      )}
      {answer === null ? (
        <p role="status">Loading…</p>
      ) : answer.data.length === 0 ? (
        <p role="status">No products match “{query.q}”.</p>
      ) : (
        <ul className="console__list" aria-label="Products">
          {answer.data.map((product) => (
            <li key={product.id} className="console__panel">
              <p>
                <a href={`/admin/${encodeURIComponent(slug)}/products/${product.id}`}>{product.name}</a>
                {product.featured && ' — featured'}
                {product.archived && ' — archived (hidden from the storefront)'}
              </p>
              <p className="console__hint">
                {formatCurrency(product.price)} · {product.stock} in stock · SKU {product.skus.join(', ')}
              </p>
            </li>
          ))}
        </ul>
      )}
      <Pager
        label="Pages of products"
        page={query.page}
        pages={answer ? pagesOf(answer) : 1}
        onPage={(page) => setQuery({ ...query, page })}
      />
    </>
  );
}

export default function ProductList({ slug }: { slug: string }) {
  return (
    <StaffGate slug={slug}>
      {(store) => (
        <>
          <h1>Products of {store.title}</h1>
          <p>
            <a href={`/admin/${encodeURIComponent(slug)}/products/new`}>New product</a>
          </p>
          <Products slug={slug} />
        </>
      )}
    </StaffGate>
  );
}
