/** /admin/{store}/audit (owners): the store's changes, newest first, a page at a time. */
import { useEffect, useState } from 'react';
import type { AuditEntry } from '../../lib/contract/answers.ts';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { OwnerGate } from './StoreGate.tsx';

const shown = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value));

function Entries({ slug }: { slug: string }) {
  const [page, setPage] = useState(1);
  const [entries, setEntries] = useState<{ data: AuditEntry[]; pages: number } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    consoleApi
      .audit(slug, page)
      .then((answer) =>
        setEntries({
          data: answer.data,
          pages: Math.max(1, Math.ceil((answer.meta?.total ?? 0) / (answer.meta?.perPage ?? 50))),
        }),
      )
      .catch((error: unknown) => setFailure(error instanceof Error ? error.message : String(error)));
  }, [slug, page]);

  if (failure)
    return (
      <div className="alert alert--error" role="alert">
        {failure}
      </div>
    );
  if (!entries) return <p role="status">Loading…</p>;
  if (entries.data.length === 0) return <p>No changes yet.</p>;
  return (
    <>
      <ol className="console__audit">
        {entries.data.map((entry) => (
          <li key={entry.id} className="console__panel">
            <p>
              <strong>{entry.action}</strong> by {entry.actor},{' '}
              <time dateTime={entry.at}>{new Date(entry.at).toLocaleString()}</time>
            </p>
            <dl>
              <dt>Before</dt>
              <dd>
                <code>{shown(entry.before)}</code>
              </dd>
              <dt>After</dt>
              <dd>
                <code>{shown(entry.after)}</code>
              </dd>
            </dl>
          </li>
        ))}
      </ol>
      <nav aria-label="Audit log pages" className="console__links">
        <button type="button" className="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
          Newer
        </button>
        <span>
          Page {page} of {entries.pages}
        </span>
        <button type="button" className="button" disabled={page >= entries.pages} onClick={() => setPage(page + 1)}>
          Older
        </button>
      </nav>
    </>
  );
}

export default function AuditLog({ slug }: { slug: string }) {
  return (
    <OwnerGate slug={slug}>
      {(store) => (
        <>
          <h1>Audit log of {store.title}</h1>
          <Entries slug={slug} />
        </>
      )}
    </OwnerGate>
  );
}
