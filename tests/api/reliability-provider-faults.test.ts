/**
 * Reliability (docs/reliability.md), faults: the payment provider failing or timing out. The shopper gets a clear 502, a retry
 * is safe (idempotency keys on every provider call), nothing is charged twice, and a refund the
 * provider could not make is owed and made later, once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { settleOwedReleases } from '../../src/server/checkout/release.ts';
import { silentLogger } from '../../src/server/http/context.ts';
import { PaymentProviderError } from '../../src/server/payments/provider.ts';
import type { TestProcessor } from '../../src/server/payments/test-processor.ts';
import { report, split } from './support/figures.ts';
import { cartIdOf, chargesOf, finalize, pay, readyCart, S } from './support/shopper.ts';
import { startTestApp, variantId, type TestApp } from './support/test-app.ts';

type Call = 'createIntent' | 'updateAmount' | 'retrieveIntent' | 'refundIntent' | 'cancelIntent';
/** 'before': the provider never got the call. 'after': it did the work, then the answer was lost (a timeout). */
type Fault = 'before' | 'after';
const planned: { call: Call; fault: Fault }[] = [];
const injected: string[] = [];

function flaky(processor: TestProcessor): TestProcessor {
  const wrap =
    <A extends unknown[], R>(call: Call, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const at = planned.findIndex((p) => p.call === call);
      const fault = at >= 0 ? planned.splice(at, 1)[0]!.fault : null;
      if (fault) injected.push(`${call}:${fault}`);
      if (fault === 'before') throw new PaymentProviderError(`${call} failed (injected)`);
      const result = await fn(...args);
      if (fault === 'after')
        throw new PaymentProviderError(`${call} timed out (injected)`, { cause: new Error('ETIMEDOUT') });
      return result;
    };
  return {
    ...processor,
    createIntent: wrap('createIntent', processor.createIntent),
    updateAmount: wrap('updateAmount', processor.updateAmount),
    retrieveIntent: wrap('retrieveIntent', processor.retrieveIntent),
    refundIntent: wrap('refundIntent', processor.refundIntent),
    cancelIntent: wrap('cancelIntent', processor.cancelIntent),
  };
}

let api: TestApp;
let tee: string;
beforeAll(async () => {
  api = await startTestApp({}, { wrapPayments: flaky });
  tee = await variantId(api.db, 'TEE-M-RED');
});
afterAll(async () => api?.close());

const CLEAR = 'The payment provider did not answer. Please try again in a moment.';

describe('payment provider faults', () => {
  test('a checkout whose provider call timed out after creating the intent: 502, and the retry gets that same intent', async () => {
    const token = await readyCart(api, tee);
    const cartId = await cartIdOf(api, token);
    planned.push({ call: 'createIntent', fault: 'after' });
    const failed = await api.call('POST', `${S}/cart/checkout`, { token });
    planned.push({ call: 'createIntent', fault: 'before' });
    const failedAgain = await api.call('POST', `${S}/cart/checkout`, { token });
    const retried = await api.call('POST', `${S}/cart/checkout`, { token });
    const intents = await api.db.selectFrom('payment_intents').select('id').where('cart_id', '=', cartId).execute();
    report('provider-timeout-checkout', {
      answers: split([failed.status, failedAgain.status, retried.status]),
      intents: intents.length,
      violations: intents.length === 1 ? 0 : 1,
    });
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ message: CLEAR });
    expect(failed.headers.get('retry-after')).toBeTruthy();
    expect(failedAgain.status).toBe(502);
    expect(retried.status).toBe(200);
    expect(intents).toEqual([{ id: retried.body.paymentIntent.id }]);
  });

  test('a finalize whose provider lookup failed: 502, and the retry places one order with one charge', async () => {
    const token = await readyCart(api, tee);
    const intentId = await pay(api, token);
    const cartId = await cartIdOf(api, token);
    planned.push({ call: 'retrieveIntent', fault: 'before' }, { call: 'retrieveIntent', fault: 'after' });
    const first = await finalize(api, token, intentId);
    const second = await finalize(api, token, intentId);
    const retries = await Promise.all([finalize(api, token, intentId), finalize(api, token, intentId)]);
    const orders = await api.db.selectFrom('orders').select('id').where('cart_id', '=', cartId).execute();
    const { charges } = await chargesOf(api, [cartId]);
    report('provider-fail-finalize', {
      answers: split([first.status, second.status, ...retries.map((r) => r.status)]),
      orders: orders.length,
      charges,
      violations: orders.length === 1 && charges === 1 ? 0 : 1,
    });
    expect([first.status, second.status]).toEqual([502, 502]);
    expect(first.body.message).toBe(CLEAR);
    expect(retries.map((r) => r.status)).toEqual([200, 200]);
    expect(orders).toHaveLength(1);
    expect(charges).toBe(1);
  });

  test('a refund the provider could not make is owed, then made exactly once by the next call or the sweep', async () => {
    const results: string[] = [];
    for (const settle of ['retry', 'sweep'] as const) {
      const token = await readyCart(api, tee);
      const intentId = await pay(api, token);
      const cartId = await cartIdOf(api, token);
      await api.call('POST', `${S}/cart/cart_line_items`, {
        token,
        body: { cart_line_item: { product_variant_id: tee, quantity: 1 } },
      });
      planned.push({ call: 'refundIntent', fault: settle === 'retry' ? 'before' : 'after' });
      const refused = await finalize(api, token, intentId);
      const owed = await api.db
        .selectFrom('payment_releases')
        .select('released_at')
        .where('payment_intent_id', '=', intentId)
        .executeTakeFirstOrThrow();
      if (settle === 'retry') await finalize(api, token, intentId);
      else await settleOwedReleases({ db: api.db, payments: api.payments, clock: api.clock, logger: silentLogger });
      // Later calls and sweeps find nothing more to give back.
      await finalize(api, token, intentId);
      await settleOwedReleases({ db: api.db, payments: api.payments, clock: api.clock, logger: silentLogger });
      const intent = await api.db
        .selectFrom('payment_intents')
        .select(['amount_cents', 'refunded_cents'])
        .where('id', '=', intentId)
        .executeTakeFirstOrThrow();
      const released = await api.db
        .selectFrom('payment_releases')
        .select('released_at')
        .where('payment_intent_id', '=', intentId)
        .executeTakeFirstOrThrow();
      const { charges, refunds } = await chargesOf(api, [cartId]);
      results.push(
        `${settle}:refused=${refused.status},owed=${owed.released_at === null},refunded_cents=${intent.refunded_cents}/${intent.amount_cents}`,
      );
      expect(refused.status).toBe(409);
      expect(refused.body.message).toContain('refunded');
      expect(owed.released_at).toBeNull();
      expect(released.released_at).not.toBeNull();
      expect(intent.refunded_cents).toBe(intent.amount_cents);
      expect({ charges, refunds }).toEqual({ charges: 0, refunds: 1 });
    }
    report('provider-fail-refund', { cases: results.join(' '), injected: injected.length, violations: 0 });
  });
});
