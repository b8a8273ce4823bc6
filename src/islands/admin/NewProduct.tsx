/**
 * /admin/{store}/products/new (owners and editors): a product with its name, description, options and
 * first variant (docs/decisions/207-product-editor.md); once created, its edit page opens.
 */
import { useState, type SubmitEvent } from 'react';
import { consoleApi } from '../../lib/api-client/console-api.ts';
import { TextField } from '../forms/TextField.tsx';
import { DescriptionEditor } from './DescriptionEditor.tsx';
import { StaffGate } from './StoreGate.tsx';
import { NoticeLine, textOf, useConsoleForm } from './use-console-form.tsx';
import { newVariantOf } from './variant-form-data.ts';

/** "Size, Color" → ["Size", "Color"]. */
const namesOf = (typed: string) =>
  typed
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');

function NewProductForm({ slug }: { slug: string }) {
  const { notice, submit, errorOf } = useConsoleForm();
  const [options, setOptions] = useState('');
  const names = namesOf(options);
  // The API names an option's problem by its index among the names sent.
  const optionsError = names.map((_, i) => errorOf(`option_names.${i}`)).find((e) => e.error) ?? {};

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    await submit(
      () =>
        consoleApi.createProduct(slug, {
          name: textOf(data, 'name'),
          description_html: textOf(data, 'description_html'),
          option_names: names,
          variant: newVariantOf(data, names, 'variant_name'),
        }),
      (answer) => {
        location.assign(`/admin/${encodeURIComponent(slug)}/products/${answer.data.id}`);
        return 'Product created: opening it…';
      },
    );
  }

  return (
    <form className="console__form" noValidate aria-label="New product" onSubmit={(event) => void onSubmit(event)}>
      <TextField name="name" label="Name" rules="required" maxLength={200} {...errorOf('name')} />
      <DescriptionEditor
        label="Description"
        name="description_html"
        hint="Bold, italic, underline, headings, lists, quotes and links; saved as the storefront shows it."
        defaultValue=""
        {...errorOf('description_html')}
      />
      <TextField
        name="options"
        label="Options"
        hint="Comma-separated, e.g. Size, Color; none for a product sold one way."
        value={options}
        onValueChange={setOptions}
        delay={0}
        {...optionsError}
      />
      <fieldset className="console__fieldset console__variant">
        <legend>First variant</legend>
        <TextField name="sku" label="SKU" maxLength={64} {...errorOf('variant.sku')} />
        <TextField
          name="variant_name"
          label="Variant name"
          hint="E.g. M / Red, or Default"
          maxLength={200}
          {...errorOf('variant.name')}
        />
        {names.map((name) => (
          <TextField
            key={name}
            name={`option-${name}`}
            label={name}
            maxLength={100}
            {...errorOf(`variant.options.${name}`)}
          />
        ))}
        <TextField name="price" label="Price, $" inputMode="decimal" {...errorOf('variant.price')} />
        <TextField
          name="stock"
          label="Starting stock"
          hint="Logged as stock received."
          inputMode="numeric"
          defaultValue="0"
          {...errorOf('variant.stock')}
        />
      </fieldset>
      <NoticeLine notice={notice} />
      <button type="submit" className="button button--primary">
        Create product
      </button>
    </form>
  );
}

export default function NewProduct({ slug }: { slug: string }) {
  return (
    <StaffGate slug={slug}>
      {(store) => (
        <>
          <h1>New product in {store.title}</h1>
          <p>
            <a href={`/admin/${encodeURIComponent(slug)}/products`}>All products</a>
          </p>
          <NewProductForm slug={slug} />
        </>
      )}
    </StaffGate>
  );
}
