import { Hono } from 'hono';
import { z } from 'zod';
import type { TestProcessor } from '../payments/test-processor.ts';
import type { AppEnv } from '../http/context.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { readJson } from '../http/validation.ts';
import { reshapeIntent } from '../orders/reshape.ts';

const confirmSchema = z.object({
  card: z.object(
    {
      number: z
        .string({ error: 'Card number is required.' })
        .trim()
        .min(1, 'Card number is required.')
        .max(40, 'Your card number is incorrect.'),
      exp_month: z.coerce
        .number({ error: 'Expiry month is not valid.' })
        .int('Expiry month is not valid.')
        .min(1, 'Expiry month is not valid.')
        .max(12, 'Expiry month is not valid.'),
      exp_year: z.coerce
        .number({ error: 'Expiry year is not valid.' })
        .int('Expiry year is not valid.')
        .min(0, 'Expiry year is not valid.')
        .max(2200, 'Expiry year is not valid.'),
      cvc: z
        .string({ error: 'CVC is required.' })
        .trim()
        .regex(/^\d{3,4}$/, "Your card's security code is incorrect."),
    },
    { error: 'Card is required.' },
  ),
});

/** `POST /test_processor/payment_intents/{id}/confirm`: the development stand-in for Stripe.js confirmCardPayment. */
export function testProcessorRoutes(processor: TestProcessor) {
  const app = new Hono<AppEnv>();

  app.post('/payment_intents/:id/confirm', async (c) => {
    const id = c.req.param('id');
    if (!/^pi_test_[0-9a-f]{32}$/.test(id)) throw notFound();
    const { card } = await readJson(c, confirmSchema, { wrapper: 'card' });
    const result = await processor.confirm(id, card);
    if (!result.ok && result.reason === 'not_found') throw notFound();
    if (!result.ok && result.reason === 'declined') throw new HttpError(402, { message: result.message });
    if (!result.ok) throw notFound();
    return c.json(reshapeIntent(result.intent));
  });

  return app;
}
