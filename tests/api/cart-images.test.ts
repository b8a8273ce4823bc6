import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bundleId, newToken, productId, startTestApp, variantId, type TestApp } from './support/test-app.ts';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => api?.close());

const add = (token: string, line: Record<string, unknown>) =>
  api.call('POST', '/store_front/acme/cart/cart_line_items', { token, body: { cart_line_item: line } });

/** The image the product answer names as its default: what a cart line must show. */
async function defaultImageOf(productExternalId: string) {
  const product = (await api.call('GET', `/store_front/acme/products/${await productId(api.db, productExternalId)}`))
    .body.data.attributes;
  return product.images.find((i: { id: string }) => i.id === product.default_e_commerce_image_id) ?? null;
}

describe('cart line images (read with the lines)', () => {
  test("a cart line shows its product's default image, the one the product answer names", async () => {
    const token = newToken();
    // The default is made the product's last image, so "the first image" would not pass.
    const product = Number(await productId(api.db, 'classic-tee'));
    const last = await api.db
      .selectFrom('product_images')
      .select('id')
      .where('product_id', '=', product)
      .orderBy('position', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await api.db.updateTable('products').set({ default_image_id: last.id }).where('id', '=', product).execute();
    expect((await add(token, { product_variant_id: await variantId(api.db, 'TEE-M-RED'), quantity: 1 })).status).toBe(
      201,
    );
    const cart = await api.call('GET', '/store_front/acme/cart', { token });
    const expected = await defaultImageOf('classic-tee');
    expect(expected?.id).toBe(String(last.id));
    expect(cart.body.cartItems[0].product_details.image).toEqual(expected);
  });

  test("a cart line shows the product's first image when its default image is gone, and none without images", async () => {
    const token = newToken();
    const product = Number(await productId(api.db, 'classic-tee'));
    const images = await api.db
      .selectFrom('product_images')
      .select('id')
      .where('product_id', '=', product)
      .orderBy('position')
      .orderBy('id')
      .execute();
    await api.db.updateTable('products').set({ default_image_id: null }).where('id', '=', product).execute();
    await add(token, { product_variant_id: await variantId(api.db, 'TEE-M-RED'), quantity: 1 });
    const first = await api.call('GET', '/store_front/acme/cart', { token });
    expect(first.body.cartItems[0].product_details.image?.id).toBe(images[0] ? String(images[0].id) : undefined);
    await api.db.deleteFrom('product_images').where('product_id', '=', product).execute();
    const none = await api.call('GET', '/store_front/acme/cart', { token });
    expect(none.body.cartItems[0].product_details.image).toBeNull();
  });

  test("a bundle's lines list each item's default image once in the bundle details", async () => {
    const token = newToken();
    expect((await add(token, { bundle_id: await bundleId(api.db, 'coffee-kit'), quantity: 1 })).status).toBe(201);
    const cart = await api.call('GET', '/store_front/acme/cart', { token });
    const lineImages = cart.body.cartItems.map((i: any) => i.product_details.image).filter(Boolean);
    const unique = [...new Map(lineImages.map((i: any) => [i.id, i])).values()];
    expect(unique.length).toBeGreaterThan(0);
    for (const item of cart.body.cartItems) expect(item.bundle_details.images).toEqual(unique);
  });
});
