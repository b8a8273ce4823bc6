/**
 * Finds the store's products (by name or SKU, the product list's own search) and bundles (by name) to
 * add to a collection, or variants to add to a bundle (docs/decisions/206-console-collections-and-bundles.md).
 * Its search is a form of its own: put it beside the form it feeds, never inside it.
 */
import { useState, type SubmitEvent } from 'react';
import type { ConsoleBundleSummary, ConsoleProductSummary } from '../../lib/contract/answers.ts';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { TextField } from '../forms/TextField.tsx';
import { messageOf } from './use-console-form.tsx';

export type PickedMember = { kind: 'product' | 'bundle'; id: string; name: string };
export type PickedVariant = { variant_id: string; sku: string; product_name: string; variant_name: string };

type PickerProps =
  | { slug: string; mode: 'members'; onPick(member: PickedMember): void; chosen: ReadonlySet<string> }
  | { slug: string; mode: 'variants'; onPick(variant: PickedVariant): void; chosen: ReadonlySet<string> };

type Found = { products: ConsoleProductSummary[]; bundles: ConsoleBundleSummary[] };

/** `chosen` holds `product:ID` / `bundle:ID` (members) or variant ids (variants): those are offered no button. */
export function CatalogPicker(props: PickerProps) {
  const { slug, mode, chosen } = props;
  const [typed, setTyped] = useState('');
  const [found, setFound] = useState<Found | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const label = mode === 'members' ? 'Find products and bundles' : 'Find variants by product name or SKU';

  async function onSearch(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const q = typed.trim();
    try {
      const [products, bundles] = await Promise.all([
        consoleApi.products(slug, q, 1),
        mode === 'members' ? consoleApi.bundles(slug, q, 1) : Promise.resolve({ data: [] }),
      ]);
      setFailure(null);
      setFound({ products: products.data, bundles: bundles.data });
    } catch (error) {
      setFailure(messageOf(error));
    }
  }

  const none = found !== null && found.products.length === 0 && found.bundles.length === 0;
  return (
    <div className="console__panel">
      <form role="search" aria-label={label} className="console__form" noValidate onSubmit={(e) => void onSearch(e)}>
        <TextField name="q" label={label} type="search" value={typed} onValueChange={setTyped} delay={0} />
        <button type="submit" className="button">
          Find
        </button>
      </form>
      {failure && (
        <div className="alert alert--error" role="alert">
          {failure}
        </div>
      )}
      {none && <p role="status">Nothing matches “{typed.trim()}”.</p>}
      {found && !none && (
        <ul className="console__list" aria-label="Found">
          {props.mode === 'members'
            ? [
                ...found.products.map((p) => ({
                  kind: 'product' as const,
                  id: p.id,
                  name: p.name,
                  hint: p.skus.join(', '),
                })),
                ...found.bundles.map((b) => ({ kind: 'bundle' as const, id: b.id, name: b.name, hint: 'Bundle' })),
              ].map((item) => (
                <li key={`${item.kind}:${item.id}`} className="console__links">
                  <span>
                    {item.name} <span className="console__hint">({item.hint})</span>
                  </span>
                  {chosen.has(`${item.kind}:${item.id}`) ? (
                    <span className="console__hint">In the collection</span>
                  ) : (
                    <button
                      type="button"
                      className="button"
                      onClick={() => props.onPick({ kind: item.kind, id: item.id, name: item.name })}
                    >
                      Add {item.name}
                    </button>
                  )}
                </li>
              ))
            : found.products.flatMap((p) =>
                p.variants.map((v) => (
                  <li key={v.id} className="console__links">
                    <span>
                      {p.name} – {v.name} <span className="console__hint">({v.sku})</span>
                    </span>
                    {chosen.has(v.id) ? (
                      <span className="console__hint">In the bundle</span>
                    ) : (
                      <button
                        type="button"
                        className="button"
                        onClick={() =>
                          props.onPick({ variant_id: v.id, sku: v.sku, product_name: p.name, variant_name: v.name })
                        }
                      >
                        Add {v.sku}
                      </button>
                    )}
                  </li>
                )),
              )}
        </ul>
      )}
    </div>
  );
}
