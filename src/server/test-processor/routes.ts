import { Hono } from 'hono';
import { confirmCardPayload } from '../../lib/contract/payloads.ts';
import type { TestProcessor } from '../payments/test-processor.ts';
import type { AppEnv } from '../http/context.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { readJson } from '../http/validation.ts';
import { reshapeIntent } from '../orders/reshape.ts';

/** `POST /test_processor/payment_intents/{id}/confirm`: the development stand-in for Stripe.js confirmCardPayment. */
export function testProcessorRoutes(processor: TestProcessor) {
  const app = new Hono<AppEnv>();

  app.post('/payment_intents/:id/confirm', async (c) => {
    const id = c.req.param('id');
    if (!/^pi_test_[0-9a-f]{32}$/.test(id)) throw notFound();
    const { card } = await readJson(c, confirmCardPayload, { wrapper: 'card' });
    const result = await processor.confirm(id, card);
    if (!result.ok) {
      if (result.reason === 'not_found') throw notFound();
      throw new HttpError(402, { message: result.message });
    }
    return c.json(reshapeIntent(result.intent));
  });

  return app;
}
