/**
 * /admin/{store}/bundles/{id} and /bundles/new (owners and editors): a bundle's name, description,
 * featured flag, position and items (variants found with the picker, each with a quantity), saved with
 * the version it was opened at (a stale save is refused and says so); and deleting it, which the API
 * refuses once an order holds it (docs/decisions/206-console-collections-and-bundles.md).
 */
import { useCallback, useEffect, useId, useState, type SubmitEvent } from 'react';
import type { ConsoleBundle } from '../../lib/contract/answers.ts';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { formatCurrency } from '../../lib/money.ts';
import { Checkbox } from '../forms/Checkbox.tsx';
import { Field } from '../forms/Field.tsx';
import { FormMessage } from '../forms/FormMessage.tsx';
import { TextField } from '../forms/TextField.tsx';
import { CatalogPicker, type PickedVariant } from './CatalogPicker.tsx';
import { ConfirmDelete } from './ConfirmDelete.tsx';
import { PositionField, positionOf } from './PositionField.tsx';
import { StaffGate } from './StoreGate.tsx';
import { messageOf, NoticeLine, submittedData, textOf, useConsoleForm } from './use-console-form.tsx';

const SAVED = 'Saved. The shop’s lists show it at once; the bundle’s page with the next publish.';

type Item = PickedVariant & { quantity: number };

const itemsOf = (bundle: ConsoleBundle | null): Item[] =>
  bundle?.items.map(({ variant_id, sku, product_name, variant_name, quantity }) => ({
    variant_id,
    sku,
    product_name,
    variant_name,
    quantity,
  })) ?? [];

/** A typed quantity: a whole number, or NaN (answered next to its field by the API). */
const quantityOf = (data: FormData, variantId: string) => {
  const typed = textOf(data, `quantity-${variantId}`).trim();
  return /^\d+$/.test(typed) ? Number(typed) : Number.NaN;
};

type BundleFormProps = {
  slug: string;
  /** Null for a new bundle. */
  bundle: ConsoleBundle | null;
  saved: boolean;
  onSaved(b: ConsoleBundle): void;
};

function BundleForm({ slug, bundle, saved, onSaved }: BundleFormProps) {
  const formId = useId();
  const [items, setItems] = useState<Item[]>(() => itemsOf(bundle));
  const { notice, busy, submit, errorOf } = useConsoleForm(saved ? { ok: true, text: SAVED } : null);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    const data = submittedData(event);
    const fields = {
      name: textOf(data, 'name'),
      description_html: textOf(data, 'description_html'),
      featured: data.get('featured') !== null,
      items: items.map((item) => ({ variant_id: item.variant_id, quantity: quantityOf(data, item.variant_id) })),
    };
    const position = positionOf(data);
    await submit(
      () =>
        bundle
          ? consoleApi.saveBundle(slug, bundle.id, {
              ...fields,
              version: bundle.version,
              position: position ?? Number.NaN,
            })
          : consoleApi.createBundle(slug, { ...fields, ...(position === undefined ? {} : { position }) }),
      (answer) => {
        if (!bundle) {
          location.assign(`/admin/${encodeURIComponent(slug)}/bundles/${answer.data.id}`);
          return 'Created. Opening it…';
        }
        // The parent renews this form with the saved values, which says "Saved."
        onSaved(answer.data);
        return null;
      },
    );
  }

  return (
    <>
      <form
        id={formId}
        className="console__form"
        noValidate
        aria-label="Bundle details"
        onSubmit={(event) => void onSubmit(event)}
      >
        <TextField
          name="name"
          label="Name"
          rules="required"
          maxLength={200}
          defaultValue={bundle?.name ?? ''}
          {...errorOf('name')}
        />
        <Field
          label="Description (HTML)"
          hint="Scripts, styles and unknown tags are removed when saved."
          {...errorOf('description_html')}
        >
          {(aria) => (
            <textarea
              {...aria}
              name="description_html"
              rows={5}
              defaultValue={bundle?.description_html ?? ''}
              className="sf-field__input console__textarea"
            />
          )}
        </Field>
        <Checkbox
          name="featured"
          label="Featured on the store front"
          defaultChecked={bundle?.featured ?? false}
          {...errorOf('featured')}
        />
        <PositionField
          where="in the shop"
          defaultValue={bundle?.position}
          optional={!bundle}
          {...errorOf('position')}
        />
        <fieldset className="console__fieldset">
          <legend>Items</legend>
          {bundle && (
            <p className="console__hint">Price: {formatCurrency(bundle.price)}, the items’ prices together.</p>
          )}
          {items.length === 0 ? (
            <p>No items yet: find variants below.</p>
          ) : (
            <ul className="console__list" aria-label="Items">
              {items.map((item, index) => (
                <li key={item.variant_id} className="console__panel">
                  <p>
                    {item.product_name} – {item.variant_name} <span className="console__hint">({item.sku})</span>
                  </p>
                  <FormMessage message={errorOf(`items.${index}.variant_id`).error ?? null} />
                  <TextField
                    name={`quantity-${item.variant_id}`}
                    label={`Quantity of ${item.sku}`}
                    inputMode="numeric"
                    defaultValue={String(item.quantity)}
                    {...errorOf(`items.${index}.quantity`)}
                  />
                  <button
                    type="button"
                    className="button"
                    onClick={() => setItems(items.filter((other) => other.variant_id !== item.variant_id))}
                  >
                    Remove {item.sku}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
      </form>
      <CatalogPicker
        slug={slug}
        mode="variants"
        chosen={new Set(items.map((item) => item.variant_id))}
        onPick={(picked) => setItems([...items, { ...picked, quantity: 1 }])}
      />
      <NoticeLine notice={notice}>
        {notice?.status === 409 && (
          <button type="button" className="button" onClick={() => location.reload()}>
            Reload the bundle
          </button>
        )}
      </NoticeLine>
      <p>
        <button type="submit" form={formId} className="button button--primary" disabled={busy}>
          {bundle ? 'Save bundle' : 'Create bundle'}
        </button>
      </p>
    </>
  );
}

function Editor({ slug, bundleId }: { slug: string; bundleId: string }) {
  const isNew = bundleId === 'new';
  const [bundle, setBundle] = useState<ConsoleBundle | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // A new key after a save puts the saved values (and the new version) into the form.
  const [saves, setSaves] = useState(0);

  const load = useCallback(() => {
    if (isNew) return;
    consoleApi
      .bundle(slug, bundleId)
      .then((answer) => setBundle(answer.data))
      .catch((error: unknown) => setFailure(messageOf(error)));
  }, [slug, bundleId, isNew]);
  useEffect(load, [load]);

  const list = `/admin/${encodeURIComponent(slug)}/bundles`;
  if (failure)
    return (
      <div className="alert alert--error" role="alert">
        {failure} <a href={list}>All bundles</a>
      </div>
    );
  if (!isNew && !bundle) return <p role="status">Loading…</p>;
  return (
    <>
      <h1>{bundle ? bundle.name : 'New bundle'}</h1>
      <p className="console__links">
        <a href={list}>All bundles</a>
      </p>
      <BundleForm
        key={saves}
        slug={slug}
        bundle={bundle}
        saved={saves > 0}
        onSaved={(saved) => {
          setBundle(saved);
          setSaves((n) => n + 1);
        }}
      />
      {bundle && (
        <section aria-labelledby="delete">
          <h2 id="delete">Delete</h2>
          {bundle.orders > 0 ? (
            <p>
              {bundle.orders === 1 ? 'An order holds' : `${bundle.orders} orders hold`} this bundle, so it is kept for
              their records and cannot be deleted.
            </p>
          ) : (
            <ConfirmDelete
              label="Delete this bundle"
              question={`Delete “${bundle.name}”? It leaves its collections and shoppers’ carts.`}
              remove={() => consoleApi.deleteBundle(slug, bundle.id)}
              then={list}
            />
          )}
        </section>
      )}
    </>
  );
}

export default function BundleEditor({ slug, bundleId }: { slug: string; bundleId: string }) {
  return <StaffGate slug={slug}>{() => <Editor slug={slug} bundleId={bundleId} />}</StaffGate>;
}
