/**
 * A product's options and variants on its console page (docs/decisions/207-product-editor.md): the
 * option names with every variant's SKU, name and values, saved together; a new variant with its price
 * and starting stock; removing one (the API deletes it, or deactivates it when orders or carts name it).
 * Every call carries the version the page holds; a 409 offers a reload.
 */
import { useState, type SubmitEvent } from 'react';
import type { ConsoleProduct } from '../../lib/contract/answers.ts';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { TextField } from '../forms/TextField.tsx';
import { NoticeLine, textOf, useConsoleForm, type Notice } from './use-console-form.tsx';
import { newVariantOf } from './variant-form-data.ts';

type Props = { slug: string; product: ConsoleProduct; onChanged(p: ConsoleProduct): void };

function ReloadOn409({ notice }: { notice: Notice | null }) {
  return (
    <NoticeLine notice={notice}>
      {notice?.status === 409 && (
        <button type="button" className="button" onClick={() => location.reload()}>
          Reload the product
        </button>
      )}
    </NoticeLine>
  );
}

/**
 * The first of these keys' messages: a value's own, else (on the first option) the combination's, which
 * the API gives the variant's options as a whole.
 */
function firstError(errorOf: (key: string) => { error?: string }, ...keys: (string | null)[]): { error?: string } {
  for (const key of keys) if (key !== null && errorOf(key).error) return errorOf(key);
  return {};
}

/** An option column of the form: its name as loaded (to find each variant's value) and as typed. */
type Column = { key: number; loaded: string | null; name: string };

function OptionsForm({ slug, product, onChanged }: Props) {
  const { notice, formKey, submit, errorOf } = useConsoleForm();
  const fresh = (): Column[] => product.option_names.map((name, key) => ({ key, loaded: name, name }));
  const [columns, setColumns] = useState<Column[]>(fresh);
  // The names sent with the last save: the API keys a value's error by its option's name.
  const [sent, setSent] = useState<string[]>([]);
  const nameOf = (column: Column) => column.name.trim() || 'New option';

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const names = columns.map((column) => textOf(data, `option-${column.key}`).trim());
    setSent(names);
    await submit(
      () =>
        consoleApi.saveVariants(slug, product.id, {
          version: product.version,
          option_names: names,
          variants: product.variants.map((v) => ({
            id: v.id,
            sku: textOf(data, `sku-${v.id}`),
            name: textOf(data, `name-${v.id}`),
            options: Object.fromEntries(
              columns.map((column, i) => [names[i] ?? '', textOf(data, `value-${v.id}-${column.key}`)]),
            ),
          })),
        }),
      (answer) => {
        onChanged(answer.data);
        setColumns(answer.data.option_names.map((name, key) => ({ key, loaded: name, name })));
        return 'Options and variants saved.';
      },
    );
  }

  return (
    <form
      key={formKey}
      className="console__form"
      noValidate
      aria-label="Options and variants"
      onSubmit={(event) => void onSubmit(event)}
    >
      <fieldset className="console__fieldset">
        <legend>Options</legend>
        <p className="console__hint">Size, Color …: each variant gets a value of each option.</p>
        {columns.map((column, i) => (
          <div key={column.key} className="console__option">
            <TextField
              name={`option-${column.key}`}
              label={`Option ${i + 1} name`}
              defaultValue={column.name}
              maxLength={40}
              delay={0}
              onValueChange={(name) => setColumns((all) => all.map((c) => (c.key === column.key ? { ...c, name } : c)))}
              {...errorOf(`option_names.${i}`)}
            />
            <button
              type="button"
              className="button"
              onClick={() => setColumns((all) => all.filter((c) => c.key !== column.key))}
            >
              Remove option {nameOf(column)}
            </button>
          </div>
        ))}
        <button
          type="button"
          className="button"
          onClick={() =>
            setColumns((all) => [...all, { key: Math.max(-1, ...all.map((c) => c.key)) + 1, loaded: null, name: '' }])
          }
        >
          Add option
        </button>
      </fieldset>
      {product.variants.map((variant, v) => (
        <fieldset key={variant.id} className="console__fieldset console__variant">
          <legend>{variant.sku}</legend>
          <TextField
            name={`sku-${variant.id}`}
            label={`SKU of ${variant.sku}`}
            defaultValue={variant.sku}
            maxLength={64}
            {...errorOf(`variants.${v}.sku`)}
          />
          <TextField
            name={`name-${variant.id}`}
            label={`Name of ${variant.sku}`}
            defaultValue={variant.name}
            maxLength={200}
            {...errorOf(`variants.${v}.name`)}
          />
          {columns.map((column, i) => (
            <TextField
              key={column.key}
              name={`value-${variant.id}-${column.key}`}
              label={`${nameOf(column)} of ${variant.sku}`}
              defaultValue={column.loaded === null ? '' : (variant.options[column.loaded] ?? '')}
              maxLength={100}
              {...firstError(
                errorOf,
                `variants.${v}.options.${sent[i] ?? ''}`,
                i === 0 ? `variants.${v}.options` : null,
              )}
            />
          ))}
        </fieldset>
      ))}
      <ReloadOn409 notice={notice} />
      <button type="submit" className="button button--primary">
        Save options and variants
      </button>
    </form>
  );
}

function AddVariantForm({ slug, product, onChanged }: Props) {
  const { notice, formKey, submit, errorOf } = useConsoleForm();

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    await submit(
      () =>
        consoleApi.addVariant(slug, product.id, {
          version: product.version,
          ...newVariantOf(data, product.option_names, 'name'),
        }),
      (answer) => {
        onChanged(answer.data);
        const added = answer.data.variants.at(-1);
        return `Variant ${added?.sku ?? ''} added: it is on sale now.`;
      },
    );
  }

  return (
    <form
      key={formKey}
      className="console__form console__panel"
      noValidate
      aria-label="New variant"
      onSubmit={(event) => void onSubmit(event)}
    >
      <TextField name="sku" label="SKU of the new variant" maxLength={64} {...errorOf('sku')} />
      <TextField
        name="name"
        label="Name of the new variant"
        hint="E.g. XL / Red"
        maxLength={200}
        {...errorOf('name')}
      />
      {product.option_names.map((name, i) => (
        <TextField
          key={name}
          name={`option-${name}`}
          label={`${name} of the new variant`}
          maxLength={100}
          {...firstError(errorOf, `options.${name}`, i === 0 ? 'options' : null)}
        />
      ))}
      <TextField name="price" label="Price for the new variant, $" inputMode="decimal" {...errorOf('price')} />
      <TextField
        name="stock"
        label="Starting stock"
        hint="Logged as stock received."
        inputMode="numeric"
        defaultValue="0"
        {...errorOf('stock')}
      />
      {product.option_names.length === 0 && (
        <p className="console__hint">Add an option above first: each variant needs its own option values.</p>
      )}
      <ReloadOn409 notice={notice} />
      <button type="submit" className="button">
        Add variant
      </button>
    </form>
  );
}

function RemoveVariants({ slug, product, onChanged }: Props) {
  const [notice, setNotice] = useState<Notice | null>(null);

  async function remove(variant: ConsoleProduct['variants'][number]) {
    if (!confirm(`Remove ${variant.sku}? Orders that name it keep it, off sale.`)) return;
    setNotice(null);
    try {
      const answer = await consoleApi.removeVariant(slug, product.id, variant.id, product.version);
      onChanged(answer.data);
      setNotice({
        ok: true,
        text:
          answer.meta.outcome === 'deleted'
            ? `${variant.sku} deleted.`
            : `${variant.sku} is off sale: orders or carts name it, so it is kept for them.`,
      });
    } catch (error) {
      failed(error);
    }
  }

  async function restore(variant: ConsoleProduct['deactivated_variants'][number]) {
    setNotice(null);
    try {
      onChanged((await consoleApi.restoreVariant(slug, product.id, variant.id, product.version)).data);
      setNotice({ ok: true, text: `${variant.sku} is on sale again, with no stock: adjust its stock to sell it.` });
    } catch (error) {
      failed(error);
    }
  }

  function failed(error: unknown) {
    const status = (error as { status?: number }).status;
    setNotice({ ok: false, text: (error as Error).message, ...(status ? { status } : {}) });
  }

  return (
    <>
      <ul className="console__links" aria-label="Remove a variant">
        {product.variants.map((variant) => (
          <li key={variant.id}>
            <button
              type="button"
              className="button"
              disabled={product.variants.length === 1}
              onClick={() => void remove(variant)}
            >
              Remove {variant.sku}
            </button>
          </li>
        ))}
      </ul>
      <ReloadOn409 notice={notice} />
      {product.deactivated_variants.length > 0 && (
        <>
          <p className="console__hint">
            Off sale, kept for their orders: {product.deactivated_variants.map((v) => v.sku).join(', ')}.
          </p>
          <ul className="console__links" aria-label="Put a variant back on sale">
            {product.deactivated_variants.map((variant) => (
              <li key={variant.id}>
                <button type="button" className="button" onClick={() => void restore(variant)}>
                  Put {variant.sku} back on sale
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

export function VariantsEditor(props: Props) {
  return (
    <section aria-labelledby="variants-heading">
      <h2 id="variants-heading">Options and variants</h2>
      <OptionsForm {...props} />
      <h3>Add a variant</h3>
      <AddVariantForm {...props} />
      <h3>Remove a variant</h3>
      <RemoveVariants {...props} />
    </section>
  );
}
