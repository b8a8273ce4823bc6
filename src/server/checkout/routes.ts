import { Hono } from 'hono';
import { z } from 'zod';
import { cartToken, findCart } from '../carts/cart-service.ts';
import { finalizePayload } from '../../lib/contract/payloads.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { invalid } from '../http/errors.ts';
import { readJson } from '../http/validation.ts';
import { reshapeOrder } from '../orders/reshape.ts';
import { EMPTY_CART, finalizeCart } from './finalize.ts';
import { openPaymentIntent } from './payment-intent.ts';

/** `…/cart/checkout` (payment intent for the cart's total, payment-intent.ts) and `…/cart/finalize` (the order, finalize.ts). */
export function checkoutRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.post('/checkout', async (c) => {
    const token = cartToken(c);
    // The body is empty by contract; anything sent (a price, a total) is read and ignored.
    await readJson(c, z.unknown(), { emptyAs: {} });
    return c.json(await openPaymentIntent(deps, c.var.store, token));
  });

  app.post('/finalize', async (c) => {
    const store = c.var.store;
    const token = cartToken(c);
    const { payment_intent_id } = await readJson(c, finalizePayload, { emptyAs: {} });
    const cart = await findCart(deps.db, store.id, token);
    if (!cart) throw invalid({ cart: [EMPTY_CART] });
    const order = await finalizeCart(deps, store, cart.id, payment_intent_id);
    return c.json(reshapeOrder(order, store.slug));
  });

  return app;
}
