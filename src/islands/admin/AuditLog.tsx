/** /admin/{store}/audit (owners): the store's changes, newest first, a page at a time. */
import { useEffect, useState } from 'react';
import type { AuditEntry } from '../../lib/contract/answers.ts';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { Pager, pagesOf } from './Pager.tsx';
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
          pages: pagesOf(answer),
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
      <Pager label="Audit log pages" page={page} pages={entries.pages} onPage={setPage} previous="Newer" next="Older" />
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
