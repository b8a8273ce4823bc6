/**
 * /admin/{store}/collections (owners and editors): the store's collections in its order, and a form for
 * a new one, which opens on its own page to get its products and bundles
 * (docs/decisions/206-console-collections-and-bundles.md).
 */
import { useEffect, useState, type SubmitEvent } from 'react';
import type { ConsoleCollectionSummary } from '../../lib/contract/answers.ts';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { CollectionFields } from './CollectionFields.tsx';
import { positionOf } from './PositionField.tsx';
import { StaffGate } from './StoreGate.tsx';
import { messageOf, NoticeLine, textOf, useConsoleForm } from './use-console-form.tsx';

function Collections({ slug }: { slug: string }) {
  const [collections, setCollections] = useState<ConsoleCollectionSummary[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { notice, submit, errorOf } = useConsoleForm();

  useEffect(() => {
    consoleApi
      .collections(slug)
      .then((answer) => setCollections(answer.data))
      .catch((error: unknown) => setFailure(messageOf(error)));
  }, [slug]);

  async function onCreate(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const position = positionOf(data);
    await submit(
      () =>
        consoleApi.createCollection(slug, {
          handle: textOf(data, 'handle'),
          title: textOf(data, 'title'),
          description: textOf(data, 'description'),
          ...(position === undefined ? {} : { position }),
        }),
      (answer) => {
        location.assign(`/admin/${encodeURIComponent(slug)}/collections/${answer.data.id}`);
        return 'Created. Opening it…';
      },
    );
  }

  return (
    <>
      {failure && (
        <div className="alert alert--error" role="alert">
          {failure}
        </div>
      )}
      {collections === null ? (
        <p role="status">Loading…</p>
      ) : collections.length === 0 ? (
        <p>No collections yet.</p>
      ) : (
        <ul className="console__list" aria-label="Collections">
          {collections.map((collection) => (
            <li key={collection.id} className="console__panel">
              <p>
                <a href={`/admin/${encodeURIComponent(slug)}/collections/${collection.id}`}>{collection.title}</a>
              </p>
              <p className="console__hint">
                /collections/{collection.handle} · {collection.items} {collection.items === 1 ? 'item' : 'items'} ·
                position {collection.position}
              </p>
            </li>
          ))}
        </ul>
      )}
      <h2>New collection</h2>
      <form className="console__form" noValidate aria-label="New collection" onSubmit={(event) => void onCreate(event)}>
        <CollectionFields errorOf={errorOf} />
        <NoticeLine notice={notice} />
        <button type="submit" className="button button--primary">
          Create collection
        </button>
      </form>
    </>
  );
}

export default function CollectionList({ slug }: { slug: string }) {
  return (
    <StaffGate slug={slug}>
      {(store) => (
        <>
          <h1>Collections of {store.title}</h1>
          <Collections slug={slug} />
        </>
      )}
    </StaffGate>
  );
}
