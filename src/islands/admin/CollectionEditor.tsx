/**
 * /admin/{store}/collections/{id} (owners and editors): a collection's fields (saved with the version it
 * was opened at: a stale save is refused and says so), its products and bundles in their order (added
 * with the picker, moved and removed one at a time, each change saved at once), and deleting it
 * (docs/decisions/206-console-collections-and-bundles.md).
 */
import { useCallback, useEffect, useState, type SubmitEvent } from 'react';
import type { ConsoleCollection, ConsoleCollectionItem } from '../../lib/contract/answers.ts';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { CatalogPicker } from './CatalogPicker.tsx';
import { CollectionFields } from './CollectionFields.tsx';
import { ConfirmDelete } from './ConfirmDelete.tsx';
import { positionOf } from './PositionField.tsx';
import { StaffGate } from './StoreGate.tsx';
import { messageOf, NoticeLine, textOf, useConsoleForm, type Notice } from './use-console-form.tsx';

const SAVED = 'Saved. The shop’s lists show it at once; the collection’s pages with the next publish.';

function ReloadButton({ notice }: { notice: Notice | null }) {
  if (notice?.status !== 409) return null;
  return (
    <button type="button" className="button" onClick={() => location.reload()}>
      Reload the collection
    </button>
  );
}

function Members({
  slug,
  collection,
  onChanged,
}: {
  slug: string;
  collection: ConsoleCollection;
  onChanged(c: ConsoleCollection): void;
}) {
  const { notice, submit } = useConsoleForm();
  const items = collection.items;

  const save = (next: ConsoleCollectionItem[], done: string) =>
    submit(
      () =>
        consoleApi.setCollectionItems(slug, collection.id, {
          version: collection.version,
          items: next.map((item) => (item.kind === 'product' ? { product_id: item.id } : { bundle_id: item.id })),
        }),
      (answer) => {
        onChanged(answer.data);
        return done;
      },
    );
  const move = (from: number, to: number) => {
    const next = [...items];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item!);
    void save(next, `${item!.name} moved to place ${to + 1}.`);
  };

  return (
    <section aria-labelledby="members">
      <h2 id="members">Products and bundles</h2>
      <NoticeLine notice={notice}>
        <ReloadButton notice={notice} />
      </NoticeLine>
      {items.length === 0 ? (
        <p>Nothing in this collection yet: find products and bundles below.</p>
      ) : (
        <ol className="console__list" aria-label="Members">
          {items.map((item, index) => (
            <li key={`${item.kind}:${item.id}`} className="console__panel">
              <p>
                {item.name} <span className="console__hint">({item.kind === 'product' ? 'Product' : 'Bundle'})</span>
              </p>
              <p className="console__links">
                <button type="button" className="button" disabled={index === 0} onClick={() => move(index, index - 1)}>
                  Move {item.name} up
                </button>
                <button
                  type="button"
                  className="button"
                  disabled={index === items.length - 1}
                  onClick={() => move(index, index + 1)}
                >
                  Move {item.name} down
                </button>
                <button
                  type="button"
                  className="button"
                  onClick={() =>
                    void save(
                      items.filter((_, i) => i !== index),
                      `${item.name} is out of the collection.`,
                    )
                  }
                >
                  Remove {item.name}
                </button>
              </p>
            </li>
          ))}
        </ol>
      )}
      <CatalogPicker
        slug={slug}
        mode="members"
        chosen={new Set(items.map((item) => `${item.kind}:${item.id}`))}
        onPick={(picked) => void save([...items, picked], `${picked.name} is in the collection.`)}
      />
    </section>
  );
}

function Editor({ slug, collectionId }: { slug: string; collectionId: string }) {
  const [collection, setCollection] = useState<ConsoleCollection | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // A new key after a save puts the saved values into the form.
  const [saves, setSaves] = useState(0);
  const { notice, submit, errorOf } = useConsoleForm();

  const load = useCallback(() => {
    consoleApi
      .collection(slug, collectionId)
      .then((answer) => setCollection(answer.data))
      .catch((error: unknown) => setFailure(messageOf(error)));
  }, [slug, collectionId]);
  useEffect(load, [load]);

  const list = `/admin/${encodeURIComponent(slug)}/collections`;
  if (failure)
    return (
      <div className="alert alert--error" role="alert">
        {failure} <a href={list}>All collections</a>
      </div>
    );
  if (!collection) return <p role="status">Loading…</p>;

  async function onSave(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    await submit(
      () =>
        consoleApi.saveCollection(slug, collection!.id, {
          version: collection!.version,
          handle: textOf(data, 'handle'),
          title: textOf(data, 'title'),
          description: textOf(data, 'description'),
          position: positionOf(data) ?? Number.NaN,
        }),
      (answer) => {
        setCollection(answer.data);
        setSaves((n) => n + 1);
        return SAVED;
      },
    );
  }

  return (
    <>
      <h1>{collection.title}</h1>
      <p className="console__links">
        <a href={list}>All collections</a>
      </p>
      <form
        key={saves}
        className="console__form"
        noValidate
        aria-label="Collection details"
        onSubmit={(event) => void onSave(event)}
      >
        <CollectionFields collection={collection} errorOf={errorOf} />
        <NoticeLine notice={notice}>
          <ReloadButton notice={notice} />
        </NoticeLine>
        <button type="submit" className="button button--primary">
          Save collection
        </button>
      </form>
      <Members slug={slug} collection={collection} onChanged={setCollection} />
      <section aria-labelledby="delete">
        <h2 id="delete">Delete</h2>
        <ConfirmDelete
          label="Delete this collection"
          question={`Delete “${collection.title}”? Its products and bundles stay in the store.`}
          remove={() => consoleApi.deleteCollection(slug, collection.id)}
          then={list}
        />
      </section>
    </>
  );
}

export default function CollectionEditor({ slug, collectionId }: { slug: string; collectionId: string }) {
  return <StaffGate slug={slug}>{() => <Editor slug={slug} collectionId={collectionId} />}</StaffGate>;
}
