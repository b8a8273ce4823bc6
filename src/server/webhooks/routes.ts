import { Hono } from 'hono';
import Stripe from 'stripe';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { badRequest, HttpError } from '../http/errors.ts';
import { finalizeCart } from '../checkout/finalize.ts';
import { isUuid } from '../http/validation.ts';
import { findUnstorableText, NUL_MESSAGE } from '../http/storable-text.ts';

/** Stripe's own default: a signed event older than five minutes is a replay. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * `POST /webhooks/stripe`: finalizes the order of a payment whose browser went away. The event is
 * only a hint: finalizeCart asks the provider for the intent again and is idempotent per intent,
 * so a repeated or concurrent delivery changes state once.
 */
export function webhookRoutes(deps: AppDeps) {
  const { db, clock, config, logger } = deps;
  const app = new Hono<AppEnv>();

  app.post('/stripe', async (c) => {
    const secret = config.STRIPE_WEBHOOK_SECRET;
    if (!secret) throw new HttpError(503, { message: 'Webhooks are not configured.' });
    const signature = c.req.header('stripe-signature');
    if (!signature) throw badRequest('Missing Stripe-Signature header.');
    const payload = await c.req.text();
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(
        payload,
        signature,
        secret,
        WEBHOOK_TOLERANCE_SECONDS,
        undefined,
        clock.now().getTime(),
      );
    } catch {
      throw badRequest('Invalid webhook signature.');
    }
    // Signed text is read with JSON.parse, not readJson: the same refusal of text the database cannot store.
    if (findUnstorableText(event)) throw badRequest(NUL_MESSAGE);

    const seen = await db.selectFrom('webhook_events').select('id').where('id', '=', event.id).executeTakeFirst();
    if (seen) return c.json({ received: true, duplicate: true });

    if (event.type === 'payment_intent.succeeded') {
      const intent = event.data.object;
      // Stripe's types promise metadata; a signed event without it must still not answer 500.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      const cartId = intent.metadata?.cart_id;
      const cart =
        cartId && isUuid(cartId)
          ? await db.selectFrom('carts').select(['id', 'store_id']).where('id', '=', cartId).executeTakeFirst()
          : undefined;
      if (!cart) {
        logger.warn({ event: event.id, intent: intent.id }, 'webhook: payment for an unknown cart');
      } else {
        const store = await db
          .selectFrom('stores')
          .selectAll()
          .where('id', '=', cart.store_id)
          .executeTakeFirstOrThrow();
        try {
          const order = await finalizeCart(deps, store, cart.id, intent.id);
          logger.info({ event: event.id, order: order.id }, 'webhook: order finalized');
        } catch (error) {
          // A refusal (cart changed, empty) will not get better on redelivery: record and acknowledge.
          if (!(error instanceof HttpError) || error.status === 503) throw error;
          logger.warn(
            { event: event.id, intent: intent.id, reason: error.body.message },
            'webhook: order not finalized',
          );
        }
      }
    }
    await db
      .insertInto('webhook_events')
      .values({ id: event.id.slice(0, 255), type: event.type })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return c.json({ received: true });
  });

  return app;
}
