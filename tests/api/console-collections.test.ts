/**
 * The console's collections and bundles (docs/decisions/206-console-collections-and-bundles.md): fields
 * validated as the import validates them, members and items of the store only, nothing half-written,
 * stale saves 409, every change audited, and the storefront's collection listing showing a change at
 * once although its listing index is kept for a minute here.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sanitizeDescription } from '../../src/server/catalog/import.ts';
import { operatorOf, type Operator } from './support/operator.ts';
import { newToken, startTestApp, type TestApp } from './support/test-app.ts';

let api: TestApp;
let editor: Operator;
let owner: Operator;

beforeAll(async () => {
  // A listing index kept for a minute: only the console forgetting it shows a change at once.
  api = await startTestApp({ LISTING_INDEX_MS: '60000' });
  editor = await operatorOf(api, 'acme', 'editor@acme.test', 'editor');
  owner = await operatorOf(api, 'acme', 'owner@acme.test', 'owner');
});
afterAll(async () => api?.close());

const C = '/admin/stores/acme/collections';
const B = '/admin/stores/acme/bundles';

/** A product's id by one of its SKUs, with that variant's id. */
async function skuOf(sku: string): Promise<{ productId: number; variantId: number }> {
  const row = await api.db
    .selectFrom('product_variants')
    .select(['id', 'product_id'])
    .where('sku', '=', sku)
    .executeTakeFirstOrThrow();
  return { productId: row.product_id, variantId: row.id };
}

/** The vip store's first product and variant: another store's. */
async function foreignVariant(): Promise<{ productId: number; variantId: number }> {
  const row = await api.db
    .selectFrom('product_variants as v')
    .innerJoin('stores as s', 's.id', 'v.store_id')
    .select(['v.id', 'v.product_id'])
    .where('s.slug', '=', 'vip')
    .orderBy('v.id')
    .executeTakeFirstOrThrow();
  return { productId: row.product_id, variantId: row.id };
}

/** A demo bundle's console form as it opens: its id and path, its answer, and the fields a save sends. */
async function openedBundle(externalId: string) {
  const { id } = await api.db
    .selectFrom('bundles')
    .select('id')
    .where('external_id', '=', externalId)
    .executeTakeFirstOrThrow();
  const path = `${B}/${id}`;
  const opened = (await editor.call('GET', path)).body.data;
  const form = {
    version: opened.version as number,
    name: opened.name,
    description_html: opened.description_html,
    featured: opened.featured,
    position: opened.position,
    items: (opened.items as { variant_id: string; quantity: number }[]).map((i) => ({
      variant_id: i.variant_id,
      quantity: i.quantity,
    })),
  };
  return { id, path, opened, form };
}

const names = (answer: { body: { data: { attributes: { name: string } }[] } }) =>
  answer.body.data.map((entry) => entry.attributes.name);

const auditOf = async (action: string, entityId: string) => {
  const audit = await owner.call('GET', '/admin/stores/acme/audit');
  return audit.body.data.find(
    (e: { action: string; entity_id: string }) => e.action === action && e.entity_id === entityId,
  );
};

const auditCount = async () => (await api.db.selectFrom('audit_log').select('id').execute()).length;

describe('collections', () => {
  test('an editor lists the store’s collections in its order', async () => {
    const list = await editor.call('GET', C);
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { handle: string }) => c.handle)).toEqual([
      'apparel',
      'footwear',
      'accessories',
      'home',
      'bundles',
    ]);
    expect(list.body.data[1]).toMatchObject({ title: 'Footwear', items: 1 });
  });

  test('a new collection’s fields are checked as the import checks them, each message next to its field', async () => {
    const before = await auditCount();
    const bad = await editor.call('POST', C, { body: { handle: 'Summer Sale', title: '  ' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.handle).toEqual([
      'Handle must be lower-case letters, digits and hyphens, starting with a letter or digit (at most 63).',
    ]);
    expect(bad.body.errors.title).toEqual(['Title is required.']);
    const taken = await editor.call('POST', C, { body: { handle: 'footwear', title: 'Shoes' } });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ handle: ['Another collection of this store has this handle.'] });
    expect(await auditCount()).toBe(before);
  });

  test('an editor creates a collection, adds two products, and the storefront lists them at once, in order', async () => {
    // The index is read (and kept) before the change.
    expect((await api.call('GET', '/store_front/acme/listings')).status).toBe(200);
    const created = await editor.call('POST', C, {
      body: { handle: 'gift-ideas', title: 'Gift ideas', description: '  For birthdays <b>and</b> more.  ' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({
      handle: 'gift-ideas',
      title: 'Gift ideas',
      // Plain text, as ADR 190 has it: the page escapes it.
      description: 'For birthdays <b>and</b> more.',
      position: 5,
      items: [],
    });
    const id = created.body.data.id;
    const info = await api.call('GET', '/store_front/acme/collections/gift-ideas');
    expect(info.body.data.attributes).toMatchObject({ handle: 'gift-ideas', title: 'Gift ideas' });
    expect((await api.call('GET', '/store_front/acme/collections/gift-ideas/listings')).body.data).toEqual([]);

    const candle = await skuOf('CANDLE');
    const mug = await skuOf('CERAMIC-MUG');
    const set = await editor.call('PUT', `${C}/${id}/items`, {
      body: {
        version: created.body.data.version,
        items: [{ product_id: candle.productId }, { product_id: mug.productId }],
      },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.data.items.map((i: { kind: string; name: string }) => `${i.kind} ${i.name}`)).toEqual([
      'product Cedar Soy Candle',
      'product Stoneware Mug',
    ]);
    expect(set.body.data.version).toBeGreaterThan(created.body.data.version);
    const listed = await api.call('GET', '/store_front/acme/collections/gift-ideas/listings');
    expect(names(listed)).toEqual(['Cedar Soy Candle', 'Stoneware Mug']);

    // Reordered and a bundle added, in one call.
    const coffeeKit = await api.db
      .selectFrom('bundles')
      .select('id')
      .where('external_id', '=', 'coffee-kit')
      .executeTakeFirstOrThrow();
    const moved = await editor.call('PUT', `${C}/${id}/items`, {
      body: {
        version: set.body.data.version,
        items: [{ product_id: mug.productId }, { bundle_id: String(coffeeKit.id) }, { product_id: candle.productId }],
      },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(names(await api.call('GET', '/store_front/acme/collections/gift-ideas/listings'))).toEqual([
      'Stoneware Mug',
      'Morning Coffee Kit',
      'Cedar Soy Candle',
    ]);

    const entry = await auditOf('collection.items', id);
    expect(entry).toMatchObject({ actor: 'editor@acme.test', entity: 'collection' });
    expect(entry.before.items).toEqual([
      `product:${candle.productId} Cedar Soy Candle`,
      `product:${mug.productId} Stoneware Mug`,
    ]);
    expect(entry.after.items).toHaveLength(3);
    expect(await auditOf('collection.create', id)).toMatchObject({ before: null, after: { handle: 'gift-ideas' } });
  });

  test('another store’s product, an unknown bundle or a repeated member is refused next to it, and nothing is written', async () => {
    const created = await editor.call('POST', C, { body: { handle: 'strict', title: 'Strict' } });
    const { id, version } = created.body.data;
    const own = await skuOf('UMBRELLA');
    const foreign = await foreignVariant();
    const before = await auditCount();
    const refused = await editor.call('PUT', `${C}/${id}/items`, {
      body: {
        version,
        items: [{ product_id: own.productId }, { product_id: foreign.productId }, { bundle_id: 999999 }],
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({
      'items.1.product_id': ['This product is not one of the store’s.'],
      'items.2.bundle_id': ['This bundle is not one of the store’s.'],
    });
    const twice = await editor.call('PUT', `${C}/${id}/items`, {
      body: { version, items: [{ product_id: own.productId }, { product_id: own.productId }] },
    });
    expect(twice.status).toBe(422);
    expect(twice.body.errors).toEqual({ 'items.1.product_id': ['This is in the collection already.'] });
    const neither = await editor.call('PUT', `${C}/${id}/items`, { body: { version, items: [{}] } });
    expect(neither.body.errors).toEqual({ 'items.0': ['Choose either a product or a bundle.'] });
    const unchanged = await editor.call('GET', `${C}/${id}`);
    expect(unchanged.body.data).toMatchObject({ version, items: [] });
    expect(await auditCount()).toBe(before);
  });

  test('a save from an older version is 409 and changes nothing; a handle taken by another is a field error', async () => {
    const created = await editor.call('POST', C, { body: { handle: 'rainy-days', title: 'Rainy days' } });
    const opened = created.body.data;
    const form = { version: opened.version, handle: 'rainy-days', title: 'Rainy days', description: '', position: 9 };
    const first = await editor.call('PATCH', `${C}/${opened.id}`, {
      body: { ...form, title: 'Rainy day picks', description: 'Stay dry.' },
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toMatchObject({ title: 'Rainy day picks', description: 'Stay dry.', position: 9 });
    const stale = await owner.call('PATCH', `${C}/${opened.id}`, { body: { ...form, title: 'Wet weather' } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(
      'Someone else saved this collection after you opened it. Reload the page to see their changes, then make yours again.',
    );
    const staleItems = await owner.call('PUT', `${C}/${opened.id}/items`, {
      body: { version: opened.version, items: [] },
    });
    expect(staleItems.status).toBe(409);
    expect((await editor.call('GET', `${C}/${opened.id}`)).body.data.title).toBe('Rainy day picks');

    const taken = await editor.call('PATCH', `${C}/${opened.id}`, {
      body: { ...form, version: first.body.data.version, handle: 'apparel' },
    });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ handle: ['Another collection of this store has this handle.'] });

    const renamed = await editor.call('PATCH', `${C}/${opened.id}`, {
      body: { ...form, version: first.body.data.version, handle: 'wet-weather', position: 0 },
    });
    expect(renamed.status).toBe(200);
    expect((await api.call('GET', '/store_front/acme/collections/rainy-days')).status).toBe(404);
    const store = await api.call('GET', '/store_front/acme/collections');
    // Position 0 beside the first collection (0 too): ties keep the older first.
    expect(store.body.data.slice(0, 3).map((c: { attributes: { handle: string } }) => c.attributes.handle)).toEqual([
      'apparel',
      'wet-weather',
      'footwear',
    ]);
    expect(await auditOf('collection.update', opened.id)).toMatchObject({
      before: { handle: 'rainy-days' },
      after: { handle: 'wet-weather', position: 0 },
    });
  });

  test('an import’s change to the members makes an open form stale', async () => {
    const created = await editor.call('POST', C, { body: { handle: 'imported-to', title: 'Imported to' } });
    const { id, version } = created.body.data;
    const tote = await skuOf('TOTE-BAG');
    await api.db
      .insertInto('collection_items')
      .values({ collection_id: Number(id), product_id: tote.productId, position: 0 })
      .execute();
    const stale = await editor.call('PATCH', `${C}/${id}`, {
      body: { version, handle: 'imported-to', title: 'Imported', description: '', position: 0 },
    });
    expect(stale.status).toBe(409);
  });

  test('deleting a collection takes its memberships only: the products stay, its listing is gone', async () => {
    const created = await editor.call('POST', C, { body: { handle: 'short-lived', title: 'Short lived' } });
    const { id, version } = created.body.data;
    const lamp = await skuOf('DESK-LAMP');
    await editor.call('PUT', `${C}/${id}/items`, { body: { version, items: [{ product_id: lamp.productId }] } });
    const deleted = await editor.call('DELETE', `${C}/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toBe('The collection is deleted; its products and bundles are not.');
    expect((await api.call('GET', '/store_front/acme/collections/short-lived/listings')).status).toBe(404);
    expect((await api.call('GET', `/store_front/acme/products/${lamp.productId}`)).status).toBe(200);
    expect(
      await api.db.selectFrom('collection_items').select('id').where('collection_id', '=', Number(id)).execute(),
    ).toEqual([]);
    expect(await auditOf('collection.delete', id)).toMatchObject({
      after: null,
      before: { handle: 'short-lived', items: [`product:${lamp.productId} Task Desk Lamp`] },
    });
    expect((await editor.call('DELETE', `${C}/${id}`)).status).toBe(404);
  });
});

describe('bundles', () => {
  test('an editor lists and searches the store’s bundles; the product list offers each product’s variants', async () => {
    const all = await editor.call('GET', B);
    expect(all.status).toBe(200);
    expect(all.body.data.map((b: { name: string }) => b.name)).toEqual([
      'Morning Coffee Kit',
      'Desk Setup Bundle',
      'Weekend Outdoors Pack',
    ]);
    expect(all.body.data[0]).toMatchObject({ items: 3, featured: true, position: 0 });
    expect((await editor.call('GET', `${B}?q=desk`)).body.data.map((b: { name: string }) => b.name)).toEqual([
      'Desk Setup Bundle',
    ]);
    const products = await editor.call('GET', '/admin/stores/acme/products?q=TEE-M-RED');
    expect(products.body.data[0].variants).toContainEqual(expect.objectContaining({ sku: 'TEE-M-RED' }));
  });

  test('a new bundle of the store’s variants is priced by its items, searchable and listed at once', async () => {
    expect((await api.call('GET', '/store_front/acme/listings')).status).toBe(200);
    const candle = await skuOf('CANDLE');
    const blanket = await skuOf('THROW-BLANKET');
    const typed = '<p onclick="x()">Cosy <strong>nights</strong><script>alert(1)</script></p>';
    const created = await editor.call('POST', B, {
      body: {
        name: 'Hygge Evening Set',
        description_html: typed,
        featured: true,
        items: [
          { variant_id: candle.variantId, quantity: 2 },
          { variant_id: String(blanket.variantId), quantity: 1 },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const bundle = created.body.data;
    expect(bundle.description_html).toBe(sanitizeDescription(typed));
    expect(bundle.items.map((i: { sku: string; quantity: number }) => `${i.quantity} ${i.sku}`)).toEqual([
      '2 CANDLE',
      '1 THROW-BLANKET',
    ]);
    expect(bundle).toMatchObject({ position: 3, orders: 0 });
    const items = await api.call('GET', `/store_front/acme/bundles/${bundle.id}/bundle_items`);
    expect(items.body.data.map((i: { attributes: { quantity: number } }) => i.attributes.quantity)).toEqual([2, 1]);
    const found = await api.call('GET', '/store_front/acme/search?q=hygge');
    expect(names(found)).toEqual(['Hygge Evening Set']);
    const featured = await api.call('GET', '/store_front/acme/listings?sort=featured&per_page=50');
    expect(names(featured)).toContain('Hygge Evening Set');
    expect(await auditOf('bundle.create', bundle.id)).toMatchObject({
      actor: 'editor@acme.test',
      after: { name: 'Hygge Evening Set', items: ['2 × CANDLE', '1 × THROW-BLANKET'] },
    });
  });

  test('another store’s variant, a quantity below 1 and no items are refused next to the field, nothing written', async () => {
    const own = await skuOf('UMBRELLA');
    const foreign = await foreignVariant();
    const bundlesBefore = (await api.db.selectFrom('bundles').select('id').execute()).length;
    const before = await auditCount();
    const crossStore = await editor.call('POST', B, {
      body: {
        name: 'Smuggled',
        items: [
          { variant_id: own.variantId, quantity: 1 },
          { variant_id: foreign.variantId, quantity: 1 },
        ],
      },
    });
    expect(crossStore.status).toBe(422);
    expect(crossStore.body.errors).toEqual({ 'items.1.variant_id': ['This variant is not one of the store’s.'] });
    const zero = await editor.call('POST', B, {
      body: { name: 'Zero', items: [{ variant_id: own.variantId, quantity: 0 }] },
    });
    expect(zero.body.errors).toEqual({ 'items.0.quantity': ['Quantity must be a whole number from 1 to 99.'] });
    const empty = await editor.call('POST', B, { body: { name: 'Empty', items: [] } });
    expect(empty.body.errors).toEqual({ items: ['A bundle needs at least one item.'] });
    expect((await api.db.selectFrom('bundles').select('id').execute()).length).toBe(bundlesBefore);
    expect(await auditCount()).toBe(before);
  });

  test('an item’s quantity edited changes the bundle’s price and items; a stale save is 409; a foreign variant changes nothing', async () => {
    const { id: deskSetupId, path, opened, form } = await openedBundle('desk-setup');
    const foreign = await foreignVariant();
    const refused = await editor.call('PATCH', path, {
      body: { ...form, name: 'Changed', items: [...form.items, { variant_id: foreign.variantId, quantity: 1 }] },
    });
    expect(refused.status).toBe(422);
    expect((await editor.call('GET', path)).body.data).toMatchObject({ name: opened.name, version: opened.version });

    const pens = opened.items.find((i: { sku: string }) => i.sku === 'GEL-PENS');
    const items = form.items.map((i: { variant_id: string; quantity: number }) =>
      i.variant_id === pens.variant_id ? { ...i, quantity: 3 } : i,
    );
    const saved = await editor.call('PATCH', path, { body: { ...form, items, position: 7 } });
    expect(saved.status, saved.text).toBe(200);
    const unit = Number(pens.price);
    expect(Number(saved.body.data.price)).toBeCloseTo(Number(opened.price) + 2 * unit, 2);
    expect(saved.body.data.items.find((i: { sku: string }) => i.sku === 'GEL-PENS').quantity).toBe(3);
    const storefront = await api.call('GET', `/store_front/acme/bundles/${deskSetupId}/bundle_items`);
    expect(
      storefront.body.data.map(
        (i: { attributes: { variant_name: string; quantity: number } }) => i.attributes.quantity,
      ),
    ).toEqual([1, 1, 3]);

    const stale = await owner.call('PATCH', path, { body: { ...form, name: 'Desk Kit' } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(
      'Someone else saved this bundle after you opened it. Reload the page to see their changes, then make yours again.',
    );
    expect((await editor.call('GET', path)).body.data.name).toBe(opened.name);
    const entry = await auditOf('bundle.update', String(deskSetupId));
    expect(entry.before.items).toContain('1 × GEL-PENS');
    expect(entry.after.items).toContain('3 × GEL-PENS');
    expect(entry.after.position).toBe(7);
  });

  test('a shopper’s cart holding a bundle holds its new items after an edit, at the bundle quantity, in its place', async () => {
    const { id: weekendId, path, form } = await openedBundle('weekend-pack');
    const token = newToken();
    const cartPath = '/store_front/acme/cart';
    const mug = await skuOf('CERAMIC-MUG');
    for (const body of [
      { cart_line_item: { product_variant_id: mug.variantId, quantity: 1 } },
      { cart_line_item: { bundle_id: weekendId, quantity: 2 } },
    ]) {
      const added = await api.call('POST', `${cartPath}/cart_line_items`, { token, body });
      expect(added.status, added.text).toBeLessThan(300);
    }

    const items = form.items.map((i, index) => ({ ...i, quantity: index === 0 ? i.quantity + 1 : i.quantity }));
    const pens = await skuOf('GEL-PENS');
    items.push({ variant_id: String(pens.variantId), quantity: 1 });
    const saved = await editor.call('PATCH', path, { body: { ...form, items } });
    expect(saved.status, saved.text).toBe(200);

    const cart = (await api.call('GET', cartPath, { token })).body;
    const lines = cart.cartItems as {
      quantity: number;
      bundle_id: string | null;
      bundle_details: { quantity: number } | null;
      product_details: { product_variant_id: string };
    }[];
    expect(lines[0]!.product_details.product_variant_id).toBe(String(mug.variantId));
    const bundled = lines.filter((l) => l.bundle_id === String(weekendId));
    expect(bundled.map((l) => [l.product_details.product_variant_id, l.quantity])).toEqual(
      items.map((i) => [i.variant_id, i.quantity * 2]),
    );
    expect(bundled.every((l) => l.bundle_details?.quantity === 2)).toBe(true);
    const mugPrice = Number(
      (await api.call('GET', `/store_front/acme/products/${mug.productId}`)).body.data.attributes.price,
    );
    expect(Number(cart.subTotal)).toBeCloseTo(mugPrice + 2 * Number(saved.body.data.price), 2);

    // Back as the demo store had it, for the tests after this one.
    const restored = await editor.call('PATCH', path, { body: { ...form, version: saved.body.data.version } });
    expect(restored.status, restored.text).toBe(200);
  });

  test('an import’s change to the items makes an open bundle form stale', async () => {
    const weekend = await api.db
      .selectFrom('bundles')
      .select('id')
      .where('external_id', '=', 'weekend-pack')
      .executeTakeFirstOrThrow();
    const opened = (await editor.call('GET', `${B}/${weekend.id}`)).body.data;
    await api.db.updateTable('bundle_items').set({ quantity: 2 }).where('bundle_id', '=', weekend.id).execute();
    const stale = await editor.call('PATCH', `${B}/${weekend.id}`, {
      body: {
        version: opened.version,
        name: 'Weekend Pack',
        description_html: opened.description_html,
        featured: opened.featured,
        position: opened.position,
        items: opened.items.map((i: { variant_id: string }) => ({ variant_id: i.variant_id, quantity: 1 })),
      },
    });
    expect(stale.status).toBe(409);
    expect((await editor.call('GET', `${B}/${weekend.id}`)).body.data.name).toBe(opened.name);
  });

  test('a bundle no order holds is deleted with its memberships; one an order holds is refused with 409', async () => {
    const mug = await skuOf('CERAMIC-MUG');
    const created = await editor.call('POST', B, {
      body: { name: 'Mug Duo', items: [{ variant_id: mug.variantId, quantity: 2 }] },
    });
    const id = created.body.data.id;
    const ordered = await editor.call('POST', B, {
      body: { name: 'Mug Trio', items: [{ variant_id: mug.variantId, quantity: 3 }] },
    });
    const orderedId = ordered.body.data.id;
    const store = await api.db.selectFrom('stores').select('id').where('slug', '=', 'acme').executeTakeFirstOrThrow();
    // An order's lines as finalize keeps them (details.cartItems with the bundle's id).
    await api.db
      .insertInto('orders')
      .values({
        id: randomUUID(),
        store_id: store.id,
        cart_id: randomUUID(),
        subtotal_cents: 3000,
        tax_cents: 0,
        shipping_cents: 0,
        gift_cards_cents: 0,
        total_cents: 3000,
        details: JSON.stringify({ cartItems: [{ id: randomUUID(), bundle_id: orderedId, quantity: 3 }] }),
      })
      .execute();

    expect((await editor.call('GET', `${B}/${orderedId}`)).body.data.orders).toBe(1);
    const refused = await editor.call('DELETE', `${B}/${orderedId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'This bundle is in an order, which keeps its record: it cannot be deleted. Take it out of its collections and unfeature it instead.',
    );
    expect((await api.call('GET', `/store_front/acme/bundles/${orderedId}`)).status).toBe(200);

    const deleted = await editor.call('DELETE', `${B}/${id}`);
    expect(deleted.status).toBe(200);
    expect((await api.call('GET', `/store_front/acme/bundles/${id}`)).status).toBe(404);
    expect(await auditOf('bundle.delete', id)).toMatchObject({ after: null, before: { name: 'Mug Duo' } });
  });
});
