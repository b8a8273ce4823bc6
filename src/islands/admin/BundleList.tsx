/** /admin/{store}/bundles (owners and editors): the store's bundles, searched by name, 25 a page, and a new one. */
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { formatCurrency } from '../../lib/money.ts';
import { SearchedList } from './SearchedList.tsx';
import { StaffGate } from './StoreGate.tsx';

export default function BundleList({ slug }: { slug: string }) {
  const base = `/admin/${encodeURIComponent(slug)}/bundles`;
  return (
    <StaffGate slug={slug}>
      {(store) => (
        <>
          <h1>Bundles of {store.title}</h1>
          <p className="console__links">
            <a href={`${base}/new`} className="button button--primary">
              New bundle
            </a>
          </p>
          <SearchedList
            slug={slug}
            load={consoleApi.bundles}
            searchLabel="Search by name"
            listLabel="Bundles"
            empty={(q) => (q ? `No bundles match “${q}”.` : 'No bundles yet.')}
          >
            {(bundle) => (
              <>
                <p>
                  <a href={`${base}/${bundle.id}`}>{bundle.name}</a>
                  {bundle.featured && ' — featured'}
                </p>
                <p className="console__hint">
                  {formatCurrency(bundle.price)} · {bundle.items} {bundle.items === 1 ? 'item' : 'items'} · position{' '}
                  {bundle.position}
                </p>
              </>
            )}
          </SearchedList>
        </>
      )}
    </StaffGate>
  );
}
