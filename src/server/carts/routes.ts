import { Hono, type Context } from 'hono';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { readJson, uuidId } from '../http/validation.ts';
import { checkPostalCode } from './address-formats.ts';
import { addCartLine, changeLineQuantity, removeLine, setCartAddress, type CartOwner } from './cart-changes.ts';
import { cartAnswer, cartToken } from './cart-service.ts';
import { addLinePayload, addressPayload, changeQuantityPayload } from '../../lib/contract/payloads.ts';

const ownerOf = (c: Context<AppEnv>): CartOwner => ({ storeId: c.var.store.id, token: cartToken(c) });

/** `…/cart` (GET, PUT address) and `…/cart/cart_line_items` (POST, PATCH, DELETE): the changes are cart-changes.ts. */
export function cartRoutes(deps: AppDeps) {
  const { db, clock } = deps;
  const app = new Hono<AppEnv>();

  app.get('/', async (c) => c.json(await cartAnswer(db, c.var.store, cartToken(c), clock.now())));

  app.put('/', async (c) => {
    const owner = ownerOf(c);
    const { cart: address } = await readJson(c, addressPayload, { wrapper: 'cart' });
    checkPostalCode(address);
    await setCartAddress(deps, owner, address);
    return c.json(await cartAnswer(db, c.var.store, owner.token, clock.now()));
  });

  app.post('/cart_line_items', async (c) => {
    const owner = ownerOf(c);
    const { cart_line_item: item } = await readJson(c, addLinePayload, { wrapper: 'cart_line_item' });
    const line =
      item.product_variant_id !== undefined
        ? { productVariantId: item.product_variant_id, quantity: item.quantity }
        : { bundleId: item.bundle_id!, quantity: item.quantity };
    const cart = await addCartLine(deps, owner, line);
    return c.json(await cartAnswer(db, c.var.store, owner.token, clock.now(), cart), 201);
  });

  app.patch('/cart_line_items/:id', async (c) => {
    const lineId = uuidId(c.req.param('id'));
    const owner = ownerOf(c);
    const { cart_line_item: change } = await readJson(c, changeQuantityPayload, { wrapper: 'cart_line_item' });
    const cart = await changeLineQuantity(deps, owner, lineId, change.quantity);
    return c.json(await cartAnswer(db, c.var.store, owner.token, clock.now(), cart));
  });

  app.delete('/cart_line_items/:id', async (c) => {
    const lineId = uuidId(c.req.param('id'));
    const owner = ownerOf(c);
    const cart = await removeLine(deps, owner, lineId);
    return c.json(await cartAnswer(db, c.var.store, owner.token, clock.now(), cart));
  });

  return app;
}
