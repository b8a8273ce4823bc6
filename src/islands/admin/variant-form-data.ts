import { textOf } from './use-console-form.tsx';

/**
 * A new variant as its form holds it (the new-product page and the product page's Add variant form):
 * SKU, name (under `nameField`), a value per option, price and starting stock.
 */
export function newVariantOf(data: FormData, optionNames: readonly string[], nameField: string) {
  const stock = textOf(data, 'stock').trim();
  return {
    sku: textOf(data, 'sku'),
    name: textOf(data, nameField),
    options: Object.fromEntries(optionNames.map((name) => [name, textOf(data, `option-${name}`)])),
    price: textOf(data, 'price'),
    // Not a whole number: it reaches the API as null and is answered next to its field.
    stock: stock === '' ? 0 : /^\d+$/.test(stock) ? Number(stock) : Number.NaN,
  };
}
