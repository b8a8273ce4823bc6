import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { HttpError, invalidField, notFound } from '../http/errors.ts';
import { clientAddress, enforceLimits } from '../http/rate-limit.ts';
import { readJson, uuidId } from '../http/validation.ts';
import { cartAnswer, cartToken, findCart, lockOrCreateCart } from '../carts/cart-service.ts';
import { giftCardPayload, removeGiftCardPayload } from '../../lib/contract/payloads.ts';

export const MAX_GIFT_CARDS_PER_CART = 5;

// Unknown, expired, disabled and empty codes get this exact answer, so a guesser learns nothing from it.
const INVALID_CODE = 'This gift card is not valid or has no balance.';
export const invalidCode = () => new HttpError(422, { message: INVALID_CODE, errors: { code: [INVALID_CODE] } });

/** `…/gift_cards/apply` and `…/gift_cards/{id}/remove`. */
export function giftCardRoutes({ db, clock, config, rateLimits }: AppDeps) {
  const app = new Hono<AppEnv>();

  app.post('/apply', async (c) => {
    const store = c.var.store;
    const token = cartToken(c);
    const { gift_card } = await readJson(c, giftCardPayload, { wrapper: 'gift_card' });
    await enforceLimits(
      rateLimits,
      [
        { key: `gift:client:${clientAddress(c, config.TRUST_PROXY)}`, max: config.RATE_LIMIT_GIFT_CARD_PER_CLIENT },
        { key: `gift:cart:${store.id}:${token}`, max: config.RATE_LIMIT_GIFT_CARD_PER_CART },
      ],
      config.RATE_LIMIT_WINDOW_SECONDS,
      clock.now(),
    );
    const code = gift_card.code.toUpperCase();
    if (code.length > 64) throw invalidCode();
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      const card = await trx
        .selectFrom('gift_cards')
        .select(['id', 'balance_cents', 'expires_at', 'disabled_at'])
        .where('store_id', '=', store.id)
        .where('code', '=', code)
        .executeTakeFirst();
      if (!card || card.balance_cents <= 0 || card.disabled_at || (card.expires_at && card.expires_at <= now))
        throw invalidCode();
      const cart = await lockOrCreateCart(trx, store.id, token);
      const applied = await trx
        .selectFrom('cart_gift_cards')
        .select('gift_card_id')
        .where('cart_id', '=', cart.id)
        .execute();
      if (applied.some((a) => a.gift_card_id === card.id)) return;
      if (applied.length >= MAX_GIFT_CARDS_PER_CART)
        throw invalidField('code', `You can apply at most ${MAX_GIFT_CARDS_PER_CART} gift cards to one order.`);
      await trx.insertInto('cart_gift_cards').values({ cart_id: cart.id, gift_card_id: card.id }).execute();
      await trx.updateTable('carts').set({ updated_at: now }).where('id', '=', cart.id).execute();
    });
    return c.json(await cartAnswer(db, store, token, now));
  });

  app.post('/:id/remove', async (c) => {
    const store = c.var.store;
    const cardId = uuidId(c.req.param('id'));
    const token = cartToken(c);
    await readJson(c, removeGiftCardPayload, { wrapper: 'gift_card', emptyAs: {} });
    const cart = await findCart(db, store.id, token);
    if (!cart) throw notFound();
    const removed = await db
      .deleteFrom('cart_gift_cards')
      .where('cart_id', '=', cart.id)
      .where('gift_card_id', '=', cardId)
      .executeTakeFirst();
    if (removed.numDeletedRows === 0n) throw notFound();
    return c.json(await cartAnswer(db, store, token, clock.now()));
  });

  return app;
}
