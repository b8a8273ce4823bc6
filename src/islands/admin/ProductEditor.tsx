/**
 * /admin/{store}/products/{id} (owners and editors): the product's edit form (saved with the version it
 * was opened at: a stale save is refused and says so) with its rich-text description, its options and
 * variants (VariantsEditor), its images (ProductImages), its stock with one adjustment form, and the
 * stock log (docs/decisions/199-console-catalog-and-gift-cards.md, 207-product-editor.md).
 */
import { useCallback, useEffect, useState, type SubmitEvent } from 'react';
import type { ConsoleProduct, StockReason } from '../../lib/contract/answers.ts';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { Checkbox } from '../forms/Checkbox.tsx';
import { Field } from '../forms/Field.tsx';
import { TextField } from '../forms/TextField.tsx';
import { PositionField, positionOf } from './PositionField.tsx';
import { ProductImages } from './ProductImages.tsx';
import { StaffGate } from './StoreGate.tsx';
import { DescriptionEditor } from './DescriptionEditor.tsx';
import { VariantsEditor } from './VariantsEditor.tsx';
import { messageOf, NoticeLine, submittedData, textOf, useConsoleForm } from './use-console-form.tsx';

const REASONS: { value: StockReason; label: string }[] = [
  { value: 'received', label: 'Received' },
  { value: 'correction', label: 'Correction (count)' },
  { value: 'damaged', label: 'Damaged' },
  { value: 'other', label: 'Other (say what in the note)' },
];
const reasonLabel = (reason: StockReason) => REASONS.find((r) => r.value === reason)?.label ?? reason;
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
const SAVED = 'Saved. Product pages show new prices at once; a new name or description with the next publish.';

type ProductFormProps = {
  slug: string;
  product: ConsoleProduct;
  /** What the previous form's save said (the form is new after each save). */
  saved: boolean;
  onSaved(p: ConsoleProduct): void;
};

function ProductForm({ slug, product, saved, onSaved }: ProductFormProps) {
  const { notice, busy, submit, errorOf } = useConsoleForm(saved ? { ok: true, text: SAVED } : null);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    const data = submittedData(event);
    await submit(
      () =>
        consoleApi.saveProduct(slug, product.id, {
          version: product.version,
          name: textOf(data, 'name'),
          description_html: textOf(data, 'description_html'),
          featured: data.get('featured') !== null,
          position: positionOf(data) ?? Number.NaN,
          variants: product.variants.map((v) => ({ id: v.id, price: textOf(data, `price-${v.id}`) })),
        }),
      (answer) => {
        // The parent renews this form with the saved values, which says "Saved."
        onSaved(answer.data);
        return null;
      },
    );
  }

  return (
    <form className="console__form" noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Product details">
      <TextField
        name="name"
        label="Name"
        rules="required"
        defaultValue={product.name}
        maxLength={200}
        {...errorOf('name')}
      />
      <DescriptionEditor
        label="Description"
        name="description_html"
        hint="Bold, italic, underline, headings, lists, quotes and links; saved as the storefront shows it."
        defaultValue={product.description_html}
        {...errorOf('description_html')}
      />
      <Checkbox
        name="featured"
        label="Featured on the store front"
        defaultChecked={product.featured}
        {...errorOf('featured')}
      />
      <PositionField where="in the shop" defaultValue={product.position} {...errorOf('position')} />
      <fieldset className="console__fieldset">
        <legend>Prices</legend>
        {product.variants.map((variant, index) => (
          <TextField
            key={variant.id}
            name={`price-${variant.id}`}
            label={`Price of ${variant.name} (${variant.sku}), $`}
            inputMode="decimal"
            defaultValue={variant.price}
            {...errorOf(`variants.${index}.price`)}
          />
        ))}
      </fieldset>
      <NoticeLine notice={notice}>
        {notice?.status === 409 && (
          <button type="button" className="button" onClick={() => location.reload()}>
            Reload the product
          </button>
        )}
      </NoticeLine>
      <button type="submit" className="button button--primary" disabled={busy}>
        Save product
      </button>
    </form>
  );
}

/** Every variant's stock in one compact table, and one form that adjusts the variant chosen in it. */
function StockPanel({
  slug,
  product,
  onAdjusted,
}: {
  slug: string;
  product: ConsoleProduct;
  onAdjusted(p: ConsoleProduct): void;
}) {
  const { notice, formKey, submit, errorOf } = useConsoleForm();
  const [chosen, setChosen] = useState(product.variants[0]?.id ?? '');

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    const data = submittedData(event);
    const typed = textOf(data, 'change').trim().replace(/^\+/, '');
    const variant = product.variants.find((v) => v.id === textOf(data, 'variant'));
    await submit(
      () =>
        consoleApi.adjustStock(slug, product.id, {
          variant_id: variant?.id ?? '',
          // Not a whole number: it reaches the API as null and is answered next to its field.
          change: /^-?\d+$/.test(typed) ? Number(typed) : Number.NaN,
          reason: textOf(data, 'reason') as StockReason,
          note: textOf(data, 'note'),
        }),
      (answer) => {
        onAdjusted(answer.data);
        const now = answer.data.variants.find((v) => v.id === variant?.id)?.stock;
        return `Stock of ${variant?.sku ?? ''} is now ${now ?? '?'}.`;
      },
    );
  }

  return (
    <>
      <table className="console__stock">
        <caption className="sr-only">Stock by variant</caption>
        <thead>
          <tr>
            <th scope="col">SKU</th>
            <th scope="col">Variant</th>
            <th scope="col">In stock</th>
          </tr>
        </thead>
        <tbody>
          {product.variants.map((variant) => (
            <tr key={variant.id}>
              <th scope="row">{variant.sku}</th>
              <td>{variant.name}</td>
              <td>{variant.stock}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        key={formKey}
        className="console__form console__panel"
        noValidate
        aria-label="Adjust stock"
        onSubmit={(event) => void onSubmit(event)}
      >
        <Field label="Variant" {...errorOf('variant_id')}>
          {(aria) => (
            <select
              {...aria}
              name="variant"
              value={chosen}
              onChange={(event) => setChosen(event.target.value)}
              className="console__select"
            >
              {product.variants.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.sku} ({v.stock} in stock)
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField name="change" label="Change (e.g. 5 or -2)" inputMode="numeric" {...errorOf('change')} />
        <Field label="Reason" {...errorOf('reason')}>
          {(aria) => (
            <select {...aria} name="reason" defaultValue="received" className="console__select">
              {REASONS.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField name="note" label="Note" maxLength={500} {...errorOf('note')} />
        <NoticeLine notice={notice} />
        <button type="submit" className="button">
          Adjust stock
        </button>
      </form>
    </>
  );
}

/** Deleted when nothing names it (back to the list); archived when orders or carts do (the page says so). */
function RemoveProduct({ slug, product, onArchived }: { slug: string; product: ConsoleProduct; onArchived(): void }) {
  const { notice, submit } = useConsoleForm();
  async function remove() {
    if (!confirm(`Remove ${product.name}? A product orders name is archived instead: hidden, kept for them.`)) return;
    await submit(
      () => consoleApi.removeProduct(slug, product.id, product.version),
      (answer) => {
        if (answer.data.outcome === 'deleted') {
          location.assign(`/admin/${encodeURIComponent(slug)}/products`);
          return 'Product deleted.';
        }
        onArchived();
        return 'Orders or carts name this product, so it is archived: hidden from the storefront, kept for them.';
      },
    );
  }
  return (
    <section aria-labelledby="remove-heading">
      <h2 id="remove-heading">Remove this product</h2>
      <NoticeLine notice={notice} />
      {product.archived_at === null && (
        <button type="button" className="button" onClick={() => void remove()}>
          Remove product
        </button>
      )}
    </section>
  );
}

/** An archived product's page: what archived means, and the way back on sale (then only the notice stays). */
function ArchivedNotice({
  slug,
  product,
  onRestored,
}: {
  slug: string;
  product: ConsoleProduct;
  onRestored(product: ConsoleProduct): void;
}) {
  const { notice, submit, busy } = useConsoleForm();
  if (product.archived_at === null) return notice ? <NoticeLine notice={notice} /> : null;
  return (
    <section className="alert" aria-labelledby="archived-heading">
      <h2 id="archived-heading">Archived</h2>
      <p>
        Hidden from the storefront and kept for the orders that name it. Put it back on sale here, or import a catalog
        that lists it.
      </p>
      <NoticeLine notice={notice} />
      <button
        type="button"
        className="button"
        disabled={busy}
        onClick={() =>
          void submit(
            () => consoleApi.restoreProduct(slug, product.id, product.version),
            (answer) => {
              onRestored(answer.data);
              return 'Back on sale. Publish to show it on the storefront’s pages.';
            },
          )
        }
      >
        Put back on sale
      </button>
    </section>
  );
}

function Editor({ slug, productId }: { slug: string; productId: string }) {
  const [product, setProduct] = useState<ConsoleProduct | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // A new key after a save puts the saved values (and the new version) into the form.
  const [saves, setSaves] = useState(0);

  const load = useCallback(() => {
    consoleApi
      .product(slug, productId)
      .then((answer) => setProduct(answer.data))
      .catch((error: unknown) => setFailure(messageOf(error)));
  }, [slug, productId]);
  useEffect(load, [load]);

  if (failure)
    return (
      <div className="alert alert--error" role="alert">
        {failure} <a href={`/admin/${encodeURIComponent(slug)}/products`}>All products</a>
      </div>
    );
  if (!product) return <p role="status">Loading…</p>;
  // Stock changes do not touch the edit form's version: they keep the form as typed.
  const adjusted = (next: ConsoleProduct) => setProduct({ ...next, version: product.version });
  // Option and variant changes move the version: every form carries the new one from here.
  return (
    <>
      <h1>{product.name}</h1>
      <p>
        <a href={`/admin/${encodeURIComponent(slug)}/products`}>All products</a>
      </p>
      <ArchivedNotice slug={slug} product={product} onRestored={setProduct} />
      <ProductForm
        key={saves}
        slug={slug}
        product={product}
        saved={saves > 0}
        onSaved={(saved) => {
          setProduct(saved);
          setSaves((n) => n + 1);
        }}
      />
      <VariantsEditor slug={slug} product={product} onChanged={setProduct} />
      <ProductImages slug={slug} productId={product.id} />
      <h2>Stock</h2>
      <StockPanel slug={slug} product={product} onAdjusted={adjusted} />
      <h2>Stock log</h2>
      {product.adjustments.length === 0 ? (
        <p>No adjustments yet.</p>
      ) : (
        <ul className="console__list" aria-label="Stock log">
          {product.adjustments.map((a) => (
            <li key={a.id} className="console__panel">
              <p>
                <strong>
                  {a.sku} {signed(a.change)}
                </strong>{' '}
                → {a.stock_after} · {reasonLabel(a.reason)}
                {a.note && `: ${a.note}`}
              </p>
              <p className="console__hint">
                {a.actor}, {new Date(a.at).toLocaleString('en-US')}
              </p>
            </li>
          ))}
        </ul>
      )}
      <RemoveProduct slug={slug} product={product} onArchived={load} />
    </>
  );
}

export default function ProductEditor({ slug, productId }: { slug: string; productId: string }) {
  return <StaffGate slug={slug}>{() => <Editor slug={slug} productId={productId} />}</StaffGate>;
}
