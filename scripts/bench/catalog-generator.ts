/**
 * A large catalog in the import format (docs/catalog-format.md) for the build benchmark:
 * `products` products (every fifth with size variants) and `bundles` bundles, deterministic.
 */
export function generateCatalog(products: number, bundles: number, slug = 'bench10k'): unknown {
  const images = ['classic-tee-1', 'ceramic-mug-1', 'desk-lamp-1', 'notebook-1', 'headphones-1', 'candle-1'];
  const items = Array.from({ length: products }, (_, i) => {
    const id = `p-${String(i + 1).padStart(5, '0')}`;
    const price = (5 + ((i * 37) % 200) + ((i * 13) % 100) / 100).toFixed(2);
    const sized = i % 5 === 0;
    return {
      id,
      name: `Bench Product ${i + 1}`,
      description_html: `<p>Generated product <strong>${i + 1}</strong> for the build benchmark.</p><ul><li>Durable</li><li>Useful</li></ul>`,
      featured: i < 8,
      option_names: sized ? ['Size'] : [],
      images: [{ url: `/images/demo/${images[i % images.length]}.svg`, alt: `Bench Product ${i + 1}` }],
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
  });
  const bundleList = Array.from({ length: bundles }, (_, i) => {
    const a = items[(i * 7) % products]!;
    const b = items[(i * 7 + 3) % products]!;
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
  });
  return {
    store: {
      slug,
      title: 'Bench 10k Store',
      description: 'A generated catalog for the build benchmark.',
      custom_domain: null,
      restricted: false,
      tax_rate_bps: 825,
      shipping_flat: '5.99',
      free_shipping_threshold: '75.00',
    },
    products: items,
    bundles: bundleList,
    gift_cards: [],
  };
}
