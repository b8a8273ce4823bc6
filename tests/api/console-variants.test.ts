/**
 * A product's options and variants in the console (docs/decisions/207-product-editor.md): adding a
 * variant (SKU new in the store, a value for each option, a combination of its own, starting stock
 * logged), saving the options with every variant, removing one (deleted, or deactivated when orders or
 * carts name it), each from the product's version, audited, and seen by the storefront's product API,
 * listings, search and cart.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseCatalog } from '../../src/server/catalog/catalog-format.ts';
import { importCatalog, sanitizeDescription } from '../../src/server/catalog/import.ts';
import { demoCatalogs } from '../../src/server/db/demo-data.ts';
import { operatorOf, type Operator } from './support/operator.ts';
import { acmeId, bundleOf, finalize, pay, readyCart, S } from './support/shopper.ts';
import { newToken, productId, startTestApp, variantId, type TestApp } from './support/test-app.ts';

let api: TestApp;
let editor: Operator;
let owner: Operator;

beforeAll(async () => {
  api = await startTestApp();
  editor = await operatorOf(api, 'acme', 'editor@acme.test', 'editor');
  owner = await operatorOf(api, 'acme', 'owner@acme.test', 'owner');
});
afterAll(async () => api?.close());

const P = '/admin/stores/acme/products';
type Variant = { id: string; sku: string; name: string; options: Record<string, string>; price: string; stock: number };

/** A product of its own for one test, with these options and variants (stock 5 each), in acme. */
async function productWith(optionNames: string[], variants: { sku: string; options: Record<string, string> }[]) {
  const key = crypto.randomUUID().slice(0, 8);
  const store_id = await acmeId(api);
  const product = await api.db
    .insertInto('products')
    .values({
      store_id,
      external_id: `variants-${key}`,
      name: `Variant test ${key}`,
      description_html: '',
      featured: false,
      option_names: JSON.stringify(optionNames),
      position: 2000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await api.db
    .insertInto('product_variants')
    .values(
      variants.map((v, position) => ({
        product_id: product.id,
        store_id,
        sku: `${v.sku}-${key}`,
        name: Object.values(v.options).join(' / ') || 'Default',
        options: JSON.stringify(v.options),
        price_cents: 1000,
        stock: 5,
        position,
      })),
    )
    .execute();
  return { id: String(product.id), key };
}

const open = async (productId: string) => (await editor.call('GET', `${P}/${productId}`)).body.data;

/** The variants form as the page sends it back: the loaded product with `change` applied. */
async function variantsForm(productId: string) {
  const p = await open(productId);
  return {
    version: p.version as number,
    option_names: p.option_names as string[],
    variants: (p.variants as Variant[]).map(({ id, sku, name, options }) => ({ id, sku, name, options })),
  };
}

const auditOf = async (action: string) =>
  (await owner.call('GET', '/admin/stores/acme/audit')).body.data.find((e: { action: string }) => e.action === action);

describe('adding a variant', () => {
  test('a new Size of the tee is sold at once: product API, listing filter, search, cart; its stock is logged', async () => {
    const tee = await productId(api.db, 'classic-tee');
    const opened = await open(tee);
    const added = await editor.call('POST', `${P}/${tee}/variants`, {
      body: {
        version: opened.version,
        sku: ' TEE-XXL-RED ',
        name: 'XXL / Red',
        options: { Size: 'XXL', Color: 'Red' },
        price: '21.5',
        stock: 4,
      },
    });
    expect(added.status, added.text).toBe(201);
    expect(added.body.data.version).toBeGreaterThan(opened.version);
    const variant = added.body.data.variants.at(-1) as Variant;
    expect(variant).toMatchObject({
      sku: 'TEE-XXL-RED',
      options: { Size: 'XXL', Color: 'Red' },
      price: '21.50',
      stock: 4,
    });
    expect(added.body.data.adjustments[0]).toMatchObject({
      variant_id: variant.id,
      change: 4,
      stock_after: 4,
      reason: 'received',
      note: 'Starting stock',
      actor: 'editor@acme.test',
    });

    const shown = await api.call('GET', `${S}/products/${tee}/product_variants`);
    expect(shown.body.data.find((v: { id: string }) => v.id === variant.id).attributes).toMatchObject({
      sku: 'TEE-XXL-RED',
      price: '21.50',
      stock: 4,
    });
    const listed = await api.call('GET', `${S}/listings?option=Size:XXL`);
    expect(listed.body.data.map((e: { attributes: { name: string } }) => e.attributes.name)).toEqual([
      'Classic Cotton Tee',
    ]);
    const found = await api.call('GET', `${S}/search?q=tee-xxl-red`);
    expect(found.body.data.map((e: { attributes: { name: string } }) => e.attributes.name)).toContain(
      'Classic Cotton Tee',
    );
    const carted = await api.call('POST', `${S}/cart/cart_line_items`, {
      token: newToken(),
      body: { cart_line_item: { product_variant_id: variant.id, quantity: 2 } },
    });
    expect(carted.status, carted.text).toBe(201);

    const audit = await auditOf('product.variant_add');
    expect(audit).toMatchObject({
      entity: 'product_variant',
      entity_id: variant.id,
      before: null,
      after: { sku: 'TEE-XXL-RED', options: { Size: 'XXL', Color: 'Red' }, price: '21.50', stock: 4 },
    });
    // The page opened before the addition is stale now.
    const stale = await editor.call('POST', `${P}/${tee}/variants`, {
      body: {
        version: opened.version,
        sku: 'TEE-XXL-NAVY',
        name: 'XXL / Navy',
        options: { Size: 'XXL', Color: 'Navy' },
        price: '21.50',
      },
    });
    expect(stale.status).toBe(409);
  });

  test('a SKU of another product in the store, missing or unknown options, or a combination already sold are refused next to their fields', async () => {
    const { id } = await productWith(['Size', 'Color'], [{ sku: 'A', options: { Size: 'M', Color: 'Red' } }]);
    const { version } = await open(id);
    const auditBefore = await api.db.selectFrom('audit_log').select('id').execute();
    const add = (body: Record<string, unknown>) =>
      editor.call('POST', `${P}/${id}/variants`, { body: { version, name: 'New', price: '10.00', ...body } });

    const taken = await add({ sku: 'HEADPHONES', options: { Size: 'L', Color: 'Red' } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ sku: ['Another variant in this store has this SKU.'] });

    const incomplete = await add({ sku: 'NEW-1', options: { Size: 'L', Fit: 'Slim' } });
    expect(incomplete.status).toBe(422);
    expect(incomplete.body.errors).toEqual({
      'options.Color': ['Give the variant a Color.'],
      'options.Fit': ['Fit is not one of the product’s options.'],
    });

    const twin = await add({ sku: 'NEW-2', options: { Size: 'M', Color: 'Red' } });
    expect(twin.status).toBe(422);
    expect(twin.body.errors.options[0]).toMatch(
      /^A-\w+ has the same option values: each variant needs its own combination\.$/,
    );

    const bad = await add({ sku: '', options: { Size: 'X\u0007', Color: 'Red' }, price: '1.234', stock: -1 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      sku: ['SKU is required.'],
      'options.Size': ['Option value must not hold control characters.'],
      price: ['Price must be an amount like 12.50, from 0.00 to 999999.99.'],
      stock: ['Starting stock must be a whole number from 0 to 1000000.'],
    });

    expect(await api.db.selectFrom('audit_log').select('id').execute()).toEqual(auditBefore);
    expect((await open(id)).variants).toHaveLength(1);
  });

  test('two operators giving one SKU to two products at once: one of them gets it', async () => {
    const first = await productWith(['Size'], [{ sku: 'R1', options: { Size: 'S' } }]);
    const second = await productWith(['Size'], [{ sku: 'R2', options: { Size: 'S' } }]);
    const sku = `RACE-${first.key}`;
    const answers = await Promise.all(
      [
        [editor, first.id],
        [owner, second.id],
      ].map(async ([who, id]) =>
        (who as Operator).call('POST', `${P}/${id as string}/variants`, {
          body: { version: (await open(id as string)).version, sku, name: 'M', options: { Size: 'M' }, price: '1.00' },
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    const rows = await api.db.selectFrom('product_variants').select('id').where('sku', '=', sku).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('saving the options and variants', () => {
  test('renaming an option, adding one and trading SKUs are saved together and reach the listing', async () => {
    const { id, key } = await productWith(
      ['Size'],
      [
        { sku: 'P', options: { Size: 'S' } },
        { sku: 'Q', options: { Size: 'M' } },
      ],
    );
    const form = await variantsForm(id);
    const [p, q] = form.variants as [(typeof form.variants)[number], (typeof form.variants)[number]];
    const saved = await editor.call('PUT', `${P}/${id}/variants`, {
      body: {
        version: form.version,
        option_names: ['Fit', ' Colour '],
        variants: [
          { ...p, sku: q.sku, options: { Fit: 'Slim', Colour: 'Sand' } },
          { ...q, sku: p.sku, name: 'Regular sand', options: { Fit: 'Regular', Colour: 'Sand' } },
        ],
      },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.option_names).toEqual(['Fit', 'Colour']);
    expect(saved.body.data.variants.map((v: Variant) => [v.id, v.sku, v.options])).toEqual([
      [p.id, `Q-${key}`, { Fit: 'Slim', Colour: 'Sand' }],
      [q.id, `P-${key}`, { Fit: 'Regular', Colour: 'Sand' }],
    ]);
    expect(saved.body.data.version).toBeGreaterThan(form.version);

    const listed = await api.call('GET', `${S}/listings?option=Fit:Slim`);
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([id]);
    const product = await api.call('GET', `${S}/products/${id}`);
    expect(product.body.data.attributes.optionNames).toEqual(['Fit', 'Colour']);
    const audit = await auditOf('product.variants_update');
    expect(audit.before.option_names).toEqual(['Size']);
    expect(audit.after.variants[1]).toEqual({
      sku: `P-${key}`,
      name: 'Regular sand',
      options: { Fit: 'Regular', Colour: 'Sand' },
    });
  });

  test('duplicate names, SKUs and combinations, and missing values are refused next to their fields, writing nothing', async () => {
    const { id } = await productWith(
      ['Size'],
      [
        { sku: 'D1', options: { Size: 'S' } },
        { sku: 'D2', options: { Size: 'M' } },
      ],
    );
    const form = await variantsForm(id);
    const [a, b] = form.variants as [(typeof form.variants)[number], (typeof form.variants)[number]];
    const save = (body: Record<string, unknown>) =>
      editor.call('PUT', `${P}/${id}/variants`, { body: { ...form, ...body } });

    // Removing the only option that told the two apart.
    const merged = await save({
      option_names: [],
      variants: [
        { ...a, options: {} },
        { ...b, options: {} },
      ],
    });
    expect(merged.status).toBe(422);
    expect(merged.body.errors).toEqual({
      'variants.1.options': [`${a.sku} has the same option values: each variant needs its own combination.`],
    });

    const bad = await save({
      option_names: ['Size', 'Size', 'Col:or'],
      variants: [
        { ...a, sku: b.sku, options: { Size: 'S' } },
        { ...b, options: { Size: 'M', Fit: 'Slim' } },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({
      'option_names.1': ['Another option has this name.'],
      'option_names.2': ['Option name must not hold a colon.'],
      'variants.1.sku': ['Another variant here has this SKU.'],
      'variants.1.options.Fit': ['Fit is not one of the product’s options.'],
    });

    const foreign = await save({ variants: [a, { ...b, sku: 'HEADPHONES' }] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual({ 'variants.1.sku': ['Another variant in this store has this SKU.'] });

    const partial = await save({ variants: [a] });
    expect(partial.status).toBe(422);
    expect(partial.body.errors).toEqual({
      variants: ['List every variant on sale: reload the page to see one added since.'],
    });

    expect(await variantsForm(id)).toEqual(form);
  });

  test('two saves from one version: the second is 409 and changes nothing', async () => {
    const { id } = await productWith(['Size'], [{ sku: 'C', options: { Size: 'S' } }]);
    const form = await variantsForm(id);
    const [v] = form.variants as [(typeof form.variants)[number]];
    const [first, second] = await Promise.all([
      editor.call('PUT', `${P}/${id}/variants`, { body: { ...form, variants: [{ ...v, options: { Size: 'L' } }] } }),
      owner.call('PUT', `${P}/${id}/variants`, { body: { ...form, variants: [{ ...v, options: { Size: 'XL' } }] } }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const winner = first.status === 200 ? 'L' : 'XL';
    expect((await open(id)).variants[0].options).toEqual({ Size: winner });
    const loser = first.status === 409 ? first : second;
    expect(loser.body.message).toBe(
      'Someone else saved this product after you opened it. Reload the page to see their changes, then make yours again.',
    );
  });

  test('an import writing options meanwhile makes the open form stale', async () => {
    const { id } = await productWith(['Size'], [{ sku: 'I', options: { Size: 'S' } }]);
    const form = await variantsForm(id);
    await api.db
      .updateTable('product_variants')
      .set({ options: JSON.stringify({ Size: 'M' }) })
      .where('product_id', '=', Number(id))
      .execute();
    expect((await editor.call('PUT', `${P}/${id}/variants`, { body: form })).status).toBe(409);
  });
});

describe('removing a variant', () => {
  const remove = (productId: string, variant: string, version: number) =>
    editor.call('DELETE', `${P}/${productId}/variants/${variant}?version=${version}`);

  /** A product of two Sizes whose M variant a shopper's cart holds, removed in the console: deactivated. */
  async function deactivatedInCart(prefix: string) {
    const { id, key } = await productWith(
      ['Size'],
      [
        { sku: `${prefix}1`, options: { Size: 'S' } },
        { sku: `${prefix}2`, options: { Size: 'M' } },
      ],
    );
    const held = await variantId(api.db, `${prefix}2-${key}`);
    await readyCart(api, held);
    const removed = await remove(id, held, (await open(id)).version);
    expect(removed.body.meta).toEqual({ outcome: 'deactivated' });
    return { id, key, held, removed };
  }

  test('a variant nothing names is deleted, leaves the listing and is audited', async () => {
    const { id } = await productWith(
      ['Size'],
      [
        { sku: 'X1', options: { Size: 'S' } },
        { sku: 'X2', options: { Size: 'Tiny' } },
      ],
    );
    const { version, variants } = await open(id);
    const gone = variants[1] as Variant;
    const removed = await remove(id, gone.id, version);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.meta).toEqual({ outcome: 'deleted' });
    expect(removed.body.data.variants.map((v: Variant) => v.id)).toEqual([variants[0].id]);
    expect(removed.body.data.deactivated_variants).toEqual([]);
    expect(
      await api.db.selectFrom('product_variants').select('id').where('id', '=', Number(gone.id)).execute(),
    ).toEqual([]);
    expect((await api.call('GET', `${S}/listings?option=Size:Tiny`)).body.data).toEqual([]);
    expect(await auditOf('product.variant_remove')).toMatchObject({
      entity_id: gone.id,
      before: { sku: gone.sku, options: { Size: 'Tiny' }, stock: 5 },
      after: { outcome: 'deleted' },
    });
    // The page still open at the old version is stale.
    expect((await remove(id, variants[0].id, version)).status).toBe(409);
  });

  test('a variant an order names is deactivated: off sale, out of the cart and search, its order still shows its SKU', async () => {
    const { id, key } = await productWith(
      ['Size'],
      [
        { sku: 'O1', options: { Size: 'S' } },
        { sku: 'O2', options: { Size: 'Huge' } },
      ],
    );
    const sold = await variantId(api.db, `O2-${key}`);
    const token = await readyCart(api, sold);
    const intent = await pay(api, token);
    const order = await finalize(api, token, intent);
    expect(order.status, order.text).toBe(200);

    const { version } = await open(id);
    const removed = await remove(id, sold, version);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.meta).toEqual({ outcome: 'deactivated' });
    expect(removed.body.data.variants.map((v: Variant) => v.sku)).toEqual([`O1-${key}`]);
    expect(removed.body.data.deactivated_variants).toMatchObject([{ id: sold, sku: `O2-${key}` }]);
    // What stock it had is taken off sale by a logged adjustment.
    expect(removed.body.data.adjustments[0]).toMatchObject({ variant_id: sold, change: -4, stock_after: 0 });

    const shown = await api.call('GET', `${S}/products/${id}/product_variants`);
    expect(shown.body.data.map((v: { id: string }) => v.id)).not.toContain(sold);
    expect((await api.call('GET', `${S}/listings?option=Size:Huge`)).body.data).toEqual([]);
    expect((await api.call('GET', `${S}/search?q=o2-${key}`)).body.data).toEqual([]);
    const carted = await api.call('POST', `${S}/cart/cart_line_items`, {
      token: newToken(),
      body: { cart_line_item: { product_variant_id: sold, quantity: 1 } },
    });
    expect(carted.status).toBe(404);

    const detail = await editor.call('GET', `/admin/stores/acme/orders/${order.body.orderDetails.id}`);
    expect(detail.body.data.lines.map((l: { sku: string | null }) => l.sku)).toContain(`O2-${key}`);
  });

  test('a variant in a shopper’s cart is deactivated, not deleted from under them', async () => {
    const { held } = await deactivatedInCart('K');
    expect(
      await api.db.selectFrom('cart_lines').select('id').where('product_variant_id', '=', Number(held)).execute(),
    ).toHaveLength(1);
  });

  test('a deactivated variant is put back on sale with no stock, unless it is on sale, stale or another variant has its values', async () => {
    const { id, key, held, removed } = await deactivatedInCart('R');
    const restore = (version: number) =>
      editor.call('POST', `${P}/${id}/variants/${held}/restore`, { body: { version } });

    expect((await restore(removed.body.data.version - 1)).status).toBe(409);
    const back = await restore(removed.body.data.version);
    expect(back.status, back.text).toBe(200);
    expect(back.body.data.version).toBeGreaterThan(removed.body.data.version);
    expect(back.body.data.deactivated_variants).toEqual([]);
    expect(back.body.data.variants.find((v: Variant) => v.id === held)).toMatchObject({ sku: `R2-${key}`, stock: 0 });
    const shown = await api.call('GET', `${S}/products/${id}/product_variants`);
    expect(shown.body.data.map((v: { id: string }) => v.id)).toContain(held);
    expect(await auditOf('product.variant_restore')).toMatchObject({
      entity_id: held,
      before: { sku: `R2-${key}`, outcome: 'deactivated' },
      after: { outcome: 'on sale', stock: 0 },
    });
    const again = await restore(back.body.data.version);
    expect([again.status, again.body.message]).toEqual([409, 'This variant is on sale already.']);

    // Off sale again, and its Size given to a new variant meanwhile: two variants may not offer one thing.
    const offAgain = await remove(id, held, back.body.data.version);
    const twin = await editor.call('POST', `${P}/${id}/variants`, {
      body: { version: offAgain.body.data.version, sku: `R3-${key}`, name: 'M', options: { Size: 'M' }, price: '5.00' },
    });
    expect(twin.status, twin.text).toBe(201);
    const refused = await restore(twin.body.data.version);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(`R3-${key}`);
    expect((await open(id)).deactivated_variants).toMatchObject([{ id: held }]);
  });

  test('a deactivated variant whose options the product no longer has stays off sale', async () => {
    const { id, key, held } = await deactivatedInCart('F');
    const form = await variantsForm(id);
    const renamed = await editor.call('PUT', `${P}/${id}/variants`, {
      body: {
        ...form,
        option_names: ['Fit'],
        variants: form.variants.map((v) => ({ ...v, options: { Fit: 'Slim' } })),
      },
    });
    expect(renamed.status, renamed.text).toBe(200);
    const refused = await editor.call('POST', `${P}/${id}/variants/${held}/restore`, {
      body: { version: renamed.body.data.version },
    });
    expect([refused.status, refused.body.message]).toEqual([
      409,
      `F2-${key} no longer fits the product’s options: add a variant with this product’s options instead.`,
    ]);
  });

  test('the last variant and a bundle’s are refused with 409, and an unknown one is 404', async () => {
    const { id, key } = await productWith(
      ['Size'],
      [
        { sku: 'L1', options: { Size: 'S' } },
        { sku: 'L2', options: { Size: 'M' } },
      ],
    );
    const [first, second] = [await variantId(api.db, `L1-${key}`), await variantId(api.db, `L2-${key}`)];
    await bundleOf(api, [{ variant: second, quantity: 1 }]);
    const { version } = await open(id);
    const bundled = await remove(id, second, version);
    expect(bundled.status).toBe(409);
    expect(bundled.body.message).toMatch(
      /^The bundle Bundle \w+ holds this variant: import the bundle without it first\.$/,
    );
    await api.db.deleteFrom('bundle_items').where('product_variant_id', '=', Number(second)).execute();
    expect((await remove(id, second, version)).status).toBe(200);
    const last = await remove(id, first, (await open(id)).version);
    expect(last.status).toBe(409);
    expect(last.body.message).toBe('A product keeps at least one variant: add another before removing this one.');
    expect((await remove(id, '999999', (await open(id)).version)).status).toBe(404);
  });
});

describe('the description', () => {
  test('what the rich-text editor writes (bold, lists, headings, links) is kept; other tags are not', async () => {
    const { id } = await productWith(['Size'], [{ sku: 'H', options: { Size: 'S' } }]);
    const p = await open(id);
    const typed =
      '<p>Soft <strong>organic</strong> <em>cotton</em> <u>knit</u></p><h3>Care</h3><ul><li><p>Cold wash</p></li></ul><ol><li><p>Dry flat</p></li></ol><blockquote><p>Loved</p></blockquote><p><a target="_blank" href="https://example.com">size guide</a><br>end</p><h1>big</h1><p><s>gone</s><code>x</code></p>';
    const saved = await editor.call('PATCH', `${P}/${id}`, {
      body: {
        version: p.version,
        name: p.name,
        description_html: typed,
        featured: false,
        position: 0,
        variants: p.variants.map((v: Variant) => ({ id: v.id, price: v.price })),
      },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.description_html).toBe(sanitizeDescription(typed));
    expect(saved.body.data.description_html).toBe(
      '<p>Soft <strong>organic</strong> <em>cotton</em> <u>knit</u></p><h3>Care</h3><ul><li><p>Cold wash</p></li></ul><ol><li><p>Dry flat</p></li></ol><blockquote><p>Loved</p></blockquote><p><a href="https://example.com">size guide</a><br />end</p>big<p>gonex</p>',
    );
  });
});

describe('creating and removing products', () => {
  const create = (body: Record<string, unknown>) => editor.call('POST', P, { body });
  const first = (sku: string) => ({ sku, name: 'Small', options: { Size: 'S' }, price: '12.00', stock: 3 });

  test('a new product with its first variant is on sale at once: product API, listing, search, cart', async () => {
    const created = await create({
      name: 'Linen Apron',
      description_html: '<p>Waxed <strong>linen</strong></p><script>x()</script>',
      option_names: ['Size'],
      variant: first('APRON-S'),
    });
    expect(created.status, created.text).toBe(201);
    const product = created.body.data;
    expect(product).toMatchObject({
      name: 'Linen Apron',
      description_html: '<p>Waxed <strong>linen</strong></p>',
      option_names: ['Size'],
      archived_at: null,
      variants: [{ sku: 'APRON-S', options: { Size: 'S' }, price: '12.00', stock: 3 }],
    });
    expect(product.adjustments[0]).toMatchObject({ change: 3, reason: 'received', note: 'Starting stock' });
    expect((await api.call('GET', `${S}/products/${product.id}`)).body.data.attributes.name).toBe('Linen Apron');
    const found = await api.call('GET', `${S}/search?q=apron`);
    expect(found.body.data.map((e: { id: string }) => e.id)).toEqual([product.id]);
    const carted = await api.call('POST', `${S}/cart/cart_line_items`, {
      token: newToken(),
      body: { cart_line_item: { product_variant_id: product.variants[0].id, quantity: 1 } },
    });
    expect(carted.status, carted.text).toBe(201);
    expect(await auditOf('product.create')).toMatchObject({ entity_id: product.id, before: null });
  });

  test('a taken SKU, a missing option value and a blank name are refused next to their fields, writing nothing', async () => {
    const before = await api.db.selectFrom('products').select('id').execute();
    const bad = await create({
      name: ' ',
      option_names: ['Size', 'Size'],
      variant: { ...first('HEADPHONES'), options: {} },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      name: ['Name is required.'],
      'option_names.1': ['Another option has this name.'],
      'variant.options.Size': ['Give the variant a Size.'],
    });
    const taken = await create({ name: 'Another', option_names: ['Size'], variant: first('HEADPHONES') });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ 'variant.sku': ['Another variant in this store has this SKU.'] });
    expect(await api.db.selectFrom('products').select('id').execute()).toEqual(before);
  });

  test('a product nothing names is deleted; one an order names is archived: hidden from the storefront, kept for its order, and put back on sale', async () => {
    const loose = (await create({ name: 'Loose Thing', option_names: ['Size'], variant: first('LOOSE-S') })).body.data;
    const gone = await editor.call('DELETE', `${P}/${loose.id}?version=${loose.version}`);
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body.data).toEqual({ id: loose.id, outcome: 'deleted' });
    expect((await editor.call('GET', `${P}/${loose.id}`)).status).toBe(404);

    const sold = (await create({ name: 'Sold Thing', option_names: ['Size'], variant: first('SOLD-S') })).body.data;
    const token = await readyCart(api, sold.variants[0].id);
    const order = await finalize(api, token, await pay(api, token));
    expect(order.status, order.text).toBe(200);
    // Renamed meanwhile (as an import would): the page still open at the old version is stale.
    await api.db.updateTable('products').set({ name: 'Sold Thing!' }).where('id', '=', Number(sold.id)).execute();
    const stale = await editor.call('DELETE', `${P}/${sold.id}?version=${sold.version}`);
    expect(stale.status).toBe(409);
    const { version } = await open(sold.id);
    const archived = await editor.call('DELETE', `${P}/${sold.id}?version=${version}`);
    expect(archived.body.data).toEqual({ id: sold.id, outcome: 'archived' });

    expect((await api.call('GET', `${S}/products/${sold.id}`)).status).toBe(404);
    expect((await api.call('GET', `${S}/search?q=sold%20thing`)).body.data).toEqual([]);
    const listed = await api.call('GET', `${S}/listings?per_page=100`);
    expect(listed.body.data.map((e: { id: string }) => e.id)).not.toContain(sold.id);
    const carted = await api.call('POST', `${S}/cart/cart_line_items`, {
      token: newToken(),
      body: { cart_line_item: { product_variant_id: sold.variants[0].id, quantity: 1 } },
    });
    expect(carted.status).toBe(404);
    expect((await open(sold.id)).archived_at).not.toBeNull();
    const listedInConsole = await editor.call('GET', `${P}?q=sold%20thing`);
    expect(listedInConsole.body.data).toMatchObject([{ id: sold.id, archived: true }]);
    const detail = await editor.call('GET', `/admin/stores/acme/orders/${order.body.orderDetails.id}`);
    expect(detail.body.data.lines.map((l: { sku: string | null }) => l.sku)).toEqual(['SOLD-S']);
    expect(await auditOf('product.archive')).toMatchObject({ entity_id: sold.id, after: { outcome: 'archived' } });

    // Back on sale from the console: the storefront's answers, lists and search have it again.
    const archivedAt = (await open(sold.id)) as { version: number };
    const staleRestore = await editor.call('POST', `${P}/${sold.id}/restore`, {
      body: { version: archivedAt.version - 1 },
    });
    expect(staleRestore.status).toBe(409);
    const restored = await editor.call('POST', `${P}/${sold.id}/restore`, { body: { version: archivedAt.version } });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.data).toMatchObject({ id: sold.id, archived_at: null, version: archivedAt.version + 1 });
    expect((await api.call('GET', `${S}/products/${sold.id}`)).status).toBe(200);
    expect((await api.call('GET', `${S}/search?q=sold%20thing`)).body.data.map((e: { id: string }) => e.id)).toEqual([
      sold.id,
    ]);
    const relisted = await api.call('GET', `${S}/listings?per_page=100`);
    expect(relisted.body.data.map((e: { id: string }) => e.id)).toContain(sold.id);
    expect(await auditOf('product.restore')).toMatchObject({ entity_id: sold.id, after: { outcome: 'on sale' } });
    const again = await editor.call('POST', `${P}/${sold.id}/restore`, {
      body: { version: restored.body.data.version },
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This product is on sale already.');
    const bad = await editor.call('POST', `${P}/${sold.id}/restore`, { body: { version: 'x' } });
    expect(bad.status).toBe(422);
  });

  test('a product a bundle holds is refused with 409', async () => {
    const held = (await create({ name: 'Bundled Thing', option_names: ['Size'], variant: first('BUNDLED-S') })).body
      .data;
    await bundleOf(api, [{ variant: held.variants[0].id, quantity: 1 }]);
    const refused = await editor.call('DELETE', `${P}/${held.id}?version=${held.version}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(
      /^The bundle Bundle \w+ holds this product: import the bundle without it first\.$/,
    );
  });
});

describe('the import', () => {
  test('listing a deactivated variant’s SKU again puts it back on sale', async () => {
    const tee = await productId(api.db, 'classic-tee');
    const held = await variantId(api.db, 'TEE-XL-NAVY');
    await readyCart(api, held);
    const removed = await editor.call('DELETE', `${P}/${tee}/variants/${held}?version=${(await open(tee)).version}`);
    expect(removed.body.meta).toEqual({ outcome: 'deactivated' });

    await importCatalog(api.db, parseCatalog(demoCatalogs[0]));
    const shown = await api.call('GET', `${S}/products/${tee}/product_variants`);
    expect(shown.body.data.find((v: { id: string }) => v.id === held)?.attributes.sku).toBe('TEE-XL-NAVY');
    expect((await open(tee)).deactivated_variants).toEqual([]);
  });
});
