import { Hono } from 'hono';
import { z } from 'zod';
import type { CheckoutAnswer } from '../../lib/api-types.ts';
import { cartState, cartToken, findCart } from '../carts/cart-service.ts';
import { finalizeSchema } from '../carts/payloads.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { HttpError, invalid, invalidField } from '../http/errors.ts';
import { readJson } from '../http/validation.ts';
import { reshapeIntent, reshapeOrder } from '../orders/reshape.ts';
import type { ProviderIntent } from '../payments/provider.ts';
import { EMPTY_CART, finalizeCart } from './finalize.ts';
import { recordRelease, settleRelease } from './release.ts';

const OPEN_STATUSES = new Set(['requires_payment_method', 'requires_confirmation']);

/** `…/cart/checkout` (payment intent for the cart's total) and `…/cart/finalize` (the order). */
export function checkoutRoutes(deps: AppDeps) {
  const { db, clock } = deps;
  const app = new Hono<AppEnv>();

  app.post('/checkout', async (c) => {
    const store = c.var.store;
    const token = cartToken(c);
    // The body is empty by contract; anything sent (a price, a total) is read and ignored.
    await readJson(c, z.unknown(), { emptyAs: {} });
    const cart = await findCart(db, store.id, token);
    const state = await cartState(db, store, cart ?? null, clock.now());
    if (!cart || state.lines.length === 0) throw invalid({ cart: [EMPTY_CART] });
    if (!cart.address) throw invalidField('address', 'Please enter your shipping address.');

    const amount = state.totals.totalCents;
    if (amount === 0) return c.json({ paymentIntent: null, requiresPayment: false } satisfies CheckoutAnswer);
    const payments = deps.payments;
    if (!payments) throw new HttpError(503, { message: 'Card payments are not available right now.' });

    let intent: ProviderIntent | null = cart.payment_intent_id ? await payments.retrieveIntent(cart.payment_intent_id) : null;
    if (intent && intent.cartId === cart.id && OPEN_STATUSES.has(intent.status)) {
      if (intent.amountCents !== amount) intent = await payments.updateAmount(intent.id, amount, `amount-${intent.id}-${amount}`);
    } else if (!(intent && intent.status === 'succeeded' && intent.amountCents === amount && intent.cartId === cart.id)) {
      // A paid intent for another amount can never become an order: give the money back first
      // (release.ts), so the shopper is never charged for this cart twice.
      const released = intent !== null && intent.status === 'succeeded' && intent.cartId === cart.id;
      if (released) {
        // recordRelease also moves the cart to its next checkout round.
        const order = await recordRelease(db, cart.id, intent!, 'cart changed after payment, checked out again');
        if (order) throw invalid({ cart: [EMPTY_CART] });
        await settleRelease(deps, intent!.id);
      }
      // The key names the cart, its checkout round and the amount: a retry or a concurrent call
      // gets the same intent, a changed cart a new one.
      const current = released ? await db.selectFrom('carts').select('intent_seq').where('id', '=', cart.id).executeTakeFirstOrThrow() : cart;
      const seq = intent && !released ? current.intent_seq + 1 : current.intent_seq;
      if (intent && !released) await db.updateTable('carts').set({ intent_seq: seq }).where('id', '=', cart.id).execute();
      intent = await payments.createIntent({ amountCents: amount, cartId: cart.id, storeSlug: store.slug, idempotencyKey: `checkout-${cart.id}-${seq}-${amount}` });
    }
    await db.updateTable('carts').set({ payment_intent_id: intent.id }).where('id', '=', cart.id).execute();
    return c.json({ paymentIntent: reshapeIntent(intent), requiresPayment: true } satisfies CheckoutAnswer);
  });

  app.post('/finalize', async (c) => {
    const store = c.var.store;
    const token = cartToken(c);
    const { payment_intent_id } = await readJson(c, finalizeSchema, { emptyAs: {} });
    const cart = await findCart(db, store.id, token);
    if (!cart) throw invalid({ cart: [EMPTY_CART] });
    const order = await finalizeCart(deps, store, cart.id, payment_intent_id);
    return c.json(reshapeOrder(order, store.slug));
  });

  return app;
}
