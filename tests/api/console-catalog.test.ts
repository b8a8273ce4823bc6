/**
 * The console's products (docs/decisions/199-console-catalog-and-gift-cards.md): list and search, the
 * edit form with its version (a stale save is 409), the description sanitised as the import does,
 * stock adjustments that are relative, logged and never below zero, every change audited, and the
 * storefront's product API showing an edit at once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sanitizeDescription } from '../../src/server/catalog/import.ts';
import { operatorOf, type Operator } from './support/operator.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

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

/** The product holding a SKU, and that variant's id. */
async function productOf(sku: string): Promise<{ productId: string; variantId: string }> {
  const row = await api.db
    .selectFrom('product_variants')
    .select(['id', 'product_id'])
    .where('sku', '=', sku)
    .executeTakeFirstOrThrow();
  return { productId: String(row.product_id), variantId: String(row.id) };
}

/** The edit form as the page sends it back: the loaded product with `changes` on top. */
async function formOf(productId: string, changes: Record<string, unknown> = {}) {
  const { body } = await editor.call('GET', `${P}/${productId}`);
  const p = body.data;
  return {
    version: p.version,
    name: p.name,
    description_html: p.description_html,
    featured: p.featured,
    position: p.position,
    variants: p.variants.map((v: { id: string; price: string }) => ({ id: v.id, price: v.price })),
    ...changes,
  };
}

describe('the product list', () => {
  test('an editor lists the store’s products 25 a page, and searches by name or SKU', async () => {
    const all = await editor.call('GET', P);
    expect(all.status).toBe(200);
    expect(all.body.meta).toMatchObject({ page: 1, perPage: 25 });
    expect(all.body.data.length).toBeGreaterThan(3);
    const byName = await editor.call('GET', `${P}?q=cotton%20tee`);
    expect(byName.body.data.map((p: { name: string }) => p.name)).toEqual(['Classic Cotton Tee']);
    const bySku = await editor.call('GET', `${P}?q=tee-m-red`);
    expect(bySku.body.data).toHaveLength(1);
    expect(bySku.body.data[0].skus).toContain('TEE-M-RED');
    expect((await editor.call('GET', `${P}?q=%25`)).body.data).toEqual([]);
  });

  test('a bad page is a field error', async () => {
    const answer = await editor.call('GET', `${P}?page=0`);
    expect(answer.status).toBe(422);
    expect(answer.body.errors.page).toEqual(['Page must be a whole number from 1.']);
  });
});

describe('editing a product', () => {
  test('a saved price reaches the storefront’s product API and listing at once, and is audited', async () => {
    const { productId, variantId } = await productOf('HEADPHONES');
    const saved = await editor.call('PATCH', `${P}/${productId}`, {
      body: await formOf(productId, { variants: [{ id: variantId, price: '149.5' }], featured: true }),
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.variants[0].price).toBe('149.50');
    expect(saved.body.data.featured).toBe(true);

    const variants = await api.call('GET', `/store_front/acme/products/${productId}/product_variants`);
    expect(variants.body.data[0].attributes.price).toBe('149.50');
    const product = await api.db
      .selectFrom('products')
      .select('listed_price_cents')
      .where('id', '=', Number(productId))
      .executeTakeFirstOrThrow();
    expect(product.listed_price_cents).toBe(14_950);

    const audit = await owner.call('GET', '/admin/stores/acme/audit');
    const entry = audit.body.data.find((e: { action: string }) => e.action === 'product.update');
    expect(entry).toMatchObject({ actor: 'editor@acme.test', entity: 'product', entity_id: productId });
    expect(entry.after.prices.HEADPHONES).toBe('149.50');
    expect(entry.before.prices.HEADPHONES).not.toBe('149.50');
  });

  test('the description is sanitised with the import’s rules and a new name is searchable', async () => {
    const { productId } = await productOf('NOTEBOOK');
    const typed =
      '<p onclick="steal()">Paper <strong>120 gsm</strong><script>alert(1)</script></p><a href="javascript:x()">x</a><h2>h</h2><a href="https://example.com">site</a>';
    const saved = await editor.call('PATCH', `${P}/${productId}`, {
      body: await formOf(productId, { name: 'Dotted Field Journal', description_html: typed }),
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.data.description_html).toBe(sanitizeDescription(typed));
    expect(saved.body.data.description_html).toBe(
      '<p>Paper <strong>120 gsm</strong></p><a>x</a>h<a href="https://example.com">site</a>',
    );
    const found = await api.call('GET', '/store_front/acme/search?q=journal');
    expect(found.body.data.map((e: { attributes: { name: string } }) => e.attributes.name)).toEqual([
      'Dotted Field Journal',
    ]);
  });

  test('a save from an older version is 409 with a clear message and changes nothing', async () => {
    const { productId } = await productOf('DESK-LAMP');
    const opened = await formOf(productId);
    const first = await editor.call('PATCH', `${P}/${productId}`, { body: { ...opened, name: 'Lamp One' } });
    expect(first.status).toBe(200);
    expect(first.body.data.version).toBeGreaterThan(opened.version);
    const stale = await owner.call('PATCH', `${P}/${productId}`, { body: { ...opened, name: 'Lamp Two' } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(
      'Someone else saved this product after you opened it. Reload the page to see their changes, then make yours again.',
    );
    expect((await editor.call('GET', `${P}/${productId}`)).body.data.name).toBe('Lamp One');
  });

  test('a price written elsewhere (as the import writes it) makes an open form stale too; stock does not', async () => {
    const { productId, variantId } = await productOf('GEL-PENS');
    const opened = await formOf(productId);
    const adjusted = await editor.call('POST', `${P}/${productId}/stock_adjustments`, {
      body: { variant_id: variantId, change: 2, reason: 'received' },
    });
    expect(adjusted.body.data.version).toBe(opened.version);
    await api.db
      .updateTable('product_variants')
      .set({ price_cents: 1_111 })
      .where('id', '=', Number(variantId))
      .execute();
    const stale = await editor.call('PATCH', `${P}/${productId}`, { body: { ...opened, name: 'Pens' } });
    expect(stale.status).toBe(409);
  });

  test('bad input names its field and writes nothing', async () => {
    const { productId, variantId } = await productOf('CERAMIC-MUG');
    const form = await formOf(productId);
    const auditBefore = await api.db.selectFrom('audit_log').select('id').execute();
    const bad = await editor.call('PATCH', `${P}/${productId}`, {
      body: { ...form, name: ' ', position: -1, variants: [{ id: variantId, price: '12.345' }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      name: ['Name is required.'],
      position: ['Position must be a whole number from 0 to 100000.'],
      'variants.0.price': ['Price must be an amount like 12.50, from 0.00 to 999999.99.'],
    });
    const foreign = await productOf('TEE-M-RED');
    const notOurs = await editor.call('PATCH', `${P}/${productId}`, {
      body: { ...form, variants: [{ id: foreign.variantId, price: '1.00' }] },
    });
    expect(notOurs.status).toBe(422);
    expect(notOurs.body.errors['variants.0.id']).toEqual(['This variant is not one of the product’s.']);
    expect(await api.db.selectFrom('audit_log').select('id').execute()).toEqual(auditBefore);
    expect((await editor.call('GET', `${P}/${productId}`)).body.data.version).toBe(form.version);
  });

  test('another store’s product is 404, as is an unknown one', async () => {
    const vip = await api.db
      .selectFrom('products as p')
      .innerJoin('stores as s', 's.id', 'p.store_id')
      .select('p.id')
      .where('s.slug', '=', 'vip')
      .executeTakeFirstOrThrow();
    expect((await editor.call('GET', `${P}/${vip.id}`)).status).toBe(404);
    expect((await editor.call('GET', `${P}/999999`)).status).toBe(404);
    expect((await editor.call('GET', '/admin/stores/vip/products')).status).toBe(404);
  });
});

describe('stock adjustments', () => {
  const adjust = (who: Operator, productId: string, body: Record<string, unknown>) =>
    who.call('POST', `${P}/${productId}/stock_adjustments`, { body });

  test('an adjustment is relative, logged with its reason, audited and shown by the product API', async () => {
    const { productId, variantId } = await productOf('BEANIE-RUST');
    const before = (await editor.call('GET', `${P}/${productId}`)).body.data;
    const stock = before.variants.find((v: { id: string }) => v.id === variantId).stock as number;
    const added = await adjust(editor, productId, { variant_id: variantId, change: 5, reason: 'received' });
    expect(added.status, added.text).toBe(201);
    expect(added.body.data.variants.find((v: { id: string }) => v.id === variantId).stock).toBe(stock + 5);
    expect(added.body.data.adjustments[0]).toMatchObject({
      variant_id: variantId,
      sku: 'BEANIE-RUST',
      change: 5,
      stock_after: stock + 5,
      reason: 'received',
      actor: 'editor@acme.test',
    });
    const variants = await api.call('GET', `/store_front/acme/products/${productId}/product_variants`);
    const shown = variants.body.data.find((v: { id: string }) => v.id === variantId);
    expect(shown.attributes.stock).toBe(stock + 5);
    const audit = await owner.call('GET', '/admin/stores/acme/audit');
    expect(audit.body.data[0]).toMatchObject({
      action: 'product.stock_adjust',
      before: { sku: 'BEANIE-RUST', stock },
      after: { sku: 'BEANIE-RUST', stock: stock + 5, change: 5, reason: 'received' },
    });
  });

  test('two editors adjusting at once both count', async () => {
    const { productId, variantId } = await productOf('POUR-OVER');
    const start = (await editor.call('GET', `${P}/${productId}`)).body.data.variants[0].stock as number;
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () =>
        adjust(editor, productId, { variant_id: variantId, change: 3, reason: 'received' }),
      ),
      ...Array.from({ length: 5 }, () =>
        adjust(owner, productId, { variant_id: variantId, change: -1, reason: 'damaged' }),
      ),
    ]);
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    const after = (await editor.call('GET', `${P}/${productId}`)).body.data;
    expect(after.variants[0].stock).toBe(start + 15 - 5);
    expect(
      after.adjustments
        .slice(0, 10)
        .map((a: { change: number }) => a.change)
        .sort(),
    ).toEqual([-1, -1, -1, -1, -1, 3, 3, 3, 3, 3].sort());
  });

  test('stock never goes below zero, however the takes race', async () => {
    const { productId, variantId } = await productOf('COFFEE-BEANS');
    const start = (await editor.call('GET', `${P}/${productId}`)).body.data.variants[0].stock as number;
    const tooMuch = await adjust(editor, productId, {
      variant_id: variantId,
      change: -(start + 1),
      reason: 'correction',
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors.change).toEqual([
      `Only ${start} in stock: a change can take at most ${start} away (stock already sold is gone).`,
    ]);
    // Three takes of half the stock at once: at most two fit.
    const half = Math.ceil(start / 2);
    const answers = await Promise.all(
      [editor, owner, editor].map((who) =>
        adjust(who, productId, { variant_id: variantId, change: -half, reason: 'damaged' }),
      ),
    );
    expect(answers.filter((a) => a.status === 201).length).toBeLessThanOrEqual(2);
    const left = (await editor.call('GET', `${P}/${productId}`)).body.data.variants[0].stock as number;
    expect(left).toBeGreaterThanOrEqual(0);
    expect(left).toBe(start - half * answers.filter((a) => a.status === 201).length);
  });

  test('a reason is required, “other” needs a note, and the change is a non-zero whole number', async () => {
    const { productId, variantId } = await productOf('DESK-LAMP');
    const none = await adjust(editor, productId, { variant_id: variantId, change: 0 });
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual({
      change: ['Change must be a whole number from -100000 to 100000, not 0 (e.g. 5 or -2).'],
      reason: ['Choose a reason: received, correction, damaged or other.'],
    });
    const other = await adjust(editor, productId, { variant_id: variantId, change: 1, reason: 'other' });
    expect(other.body.errors).toEqual({ note: ['Say what happened when the reason is “other”.'] });
    const foreign = await productOf('TEE-M-RED');
    const notOurs = await adjust(editor, productId, { variant_id: foreign.variantId, change: 1, reason: 'received' });
    expect(notOurs.status).toBe(422);
    expect(notOurs.body.errors.variant_id).toEqual(['This variant is not one of the product’s.']);
  });
});
