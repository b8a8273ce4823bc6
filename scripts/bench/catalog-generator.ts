import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

const IMAGES = ['classic-tee-1', 'ceramic-mug-1', 'desk-lamp-1', 'notebook-1', 'headphones-1', 'candle-1'];

/** The i-th generated product (0-based), the same every time: every fifth has size variants. */
function generatedProduct(i: number) {
  const id = `p-${String(i + 1).padStart(5, '0')}`;
  const price = (5 + ((i * 37) % 200) + ((i * 13) % 100) / 100).toFixed(2);
  const sized = i % 5 === 0;
  return {
    id,
    name: `Bench Product ${i + 1}`,
    description_html: `<p>Generated product <strong>${i + 1}</strong> for the build benchmark.</p><ul><li>Durable</li><li>Useful</li></ul>`,
    featured: i < 8,
    option_names: sized ? ['Size'] : [],
    images: [{ url: `/images/demo/${IMAGES[i % IMAGES.length]}.svg`, alt: `Bench Product ${i + 1}` }],
    default_image: 0,
    variants: sized
      ? ['S', 'M', 'L'].map((size) => ({
          sku: `${id}-${size}`,
          name: size,
          options: { Size: size },
          price,
          stock: 100,
        }))
      : [{ sku: `${id}-D`, name: 'Default', price, stock: 100 }],
  };
}

/** The i-th generated bundle: two products of a catalog of `products`. */
function generatedBundle(i: number, products: number) {
  const a = generatedProduct((i * 7) % products);
  const b = generatedProduct((i * 7 + 3) % products);
  return {
    id: `b-${i + 1}`,
    name: `Bench Bundle ${i + 1}`,
    description_html: '<p>Two generated products together.</p>',
    featured: i < 2,
    items: [
      { product: a.id, sku: a.variants[0]!.sku, quantity: 1 },
      { product: b.id, sku: b.variants[0]!.sku, quantity: 2 },
    ],
  };
}

/** The generated store's slug, whatever its size: the search bench's queries and budgets name it. */
export const GENERATED_SLUG = 'bench10k';

const generatedStore = (slug: string) => ({
  slug,
  title: 'Bench 10k Store',
  description: 'A generated catalog for the build benchmark.',
  custom_domain: null,
  restricted: false,
  tax_rate_bps: 825,
  shipping_flat: '5.99',
  free_shipping_threshold: '75.00',
});

/**
 * A large catalog in the import format (docs/catalog-format.md) for the build benchmark:
 * `products` products (every fifth with size variants) and `bundles` bundles, deterministic.
 */
export function generateCatalog(products: number, bundles: number, slug = GENERATED_SLUG): unknown {
  return {
    store: generatedStore(slug),
    products: Array.from({ length: products }, (_, i) => generatedProduct(i)),
    bundles: Array.from({ length: bundles }, (_, i) => generatedBundle(i, products)),
    gift_cards: [],
  };
}

/**
 * The same catalog as generateCatalog, written to `file` one product at a time, so a catalog of
 * 100,000 products never exists whole in this process's memory (docs/decisions/214-scale-and-contention.md).
 */
export async function writeCatalogFile(file: string, products: number, bundles: number, slug = GENERATED_SLUG) {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`{"store":${JSON.stringify(generatedStore(slug))},"products":[`);
  for (let i = 0; i < products; i++) await write(`${i ? ',' : ''}${JSON.stringify(generatedProduct(i))}`);
  await write('],"bundles":[');
  for (let i = 0; i < bundles; i++) await write(`${i ? ',' : ''}${JSON.stringify(generatedBundle(i, products))}`);
  await write('],"gift_cards":[]}');
  out.end();
  await once(out, 'finish');
}
