import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { PaymentIntentStatus } from '../../lib/contract/answers.ts';
import type { Database, PaymentIntentsTable } from '../db/schema.ts';
import type { Clock } from '../http/context.ts';
import {
  CARD_AMOUNT_LIMIT_CENTS,
  PaymentProviderError,
  type PaymentProvider,
  type ProviderIntent,
} from './provider.ts';

/**
 * The built-in card processor for development and tests. It follows Stripe's test-mode cards
 * (https://docs.stripe.com/testing) and keeps its intents in the payment_intents table.
 */

export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  expired: '4000000000000069',
  incorrectCvc: '4000000000000127',
} as const;

const DECLINES: Record<string, string> = {
  [TEST_CARDS.declined]: 'Your card was declined.',
  [TEST_CARDS.insufficientFunds]: 'Your card has insufficient funds.',
  [TEST_CARDS.expired]: 'Your card has expired.',
  [TEST_CARDS.incorrectCvc]: "Your card's security code is incorrect.",
};

export type TestCard = {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
};

export type ConfirmResult =
  | { ok: true; intent: ProviderIntent }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'declined'; message: string; intent: ProviderIntent };

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Why a card is refused, or null when the test processor accepts it. */
export function declineReason(card: TestCard, now: Date): string | null {
  const number = card.number.replace(/[\s-]/g, '');
  const known = DECLINES[number];
  if (known) return known;
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) return 'Your card number is incorrect.';
  const year = card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
  const endOfExpiryMonth = Date.UTC(year, card.exp_month, 1);
  if (endOfExpiryMonth <= now.getTime()) return 'Your card has expired.';
  return null;
}

function reshape(row: Selectable<PaymentIntentsTable>): ProviderIntent {
  return {
    id: row.id,
    clientSecret: row.client_secret,
    amountCents: row.amount_cents,
    currency: 'usd',
    status: row.status as PaymentIntentStatus,
    cartId: row.cart_id,
    provider: 'test',
    // Confirming is the intent's last change until a refund (after which it is released, not ordered).
    ...(row.status === 'succeeded' ? { succeededAt: row.updated_at } : {}),
  };
}

export type TestProcessor = {
  confirm(id: string, card: TestCard): Promise<ConfirmResult>;
} & PaymentProvider;

export function createTestProcessor(db: Kysely<Database>, clock: Clock): TestProcessor {
  const find = (id: string) => db.selectFrom('payment_intents').selectAll().where('id', '=', id).executeTakeFirst();

  return {
    name: 'test',
    maxAmountCents: CARD_AMOUNT_LIMIT_CENTS,

    async createIntent({ amountCents, cartId, idempotencyKey }) {
      const id = `pi_test_${randomBytes(16).toString('hex')}`;
      await db
        .insertInto('payment_intents')
        .values({
          id,
          cart_id: cartId,
          amount_cents: amountCents,
          currency: 'usd',
          status: 'requires_payment_method',
          client_secret: `${id}_secret_${randomBytes(16).toString('hex')}`,
          idempotency_key: idempotencyKey,
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .execute();
      const row = await db
        .selectFrom('payment_intents')
        .selectAll()
        .where('idempotency_key', '=', idempotencyKey)
        .executeTakeFirstOrThrow();
      return reshape(row);
    },

    async updateAmount(id, amountCents) {
      const row = await db
        .updateTable('payment_intents')
        .set({ amount_cents: amountCents, updated_at: clock.now() })
        .where('id', '=', id)
        .where('status', 'in', ['requires_payment_method', 'requires_confirmation'])
        .returningAll()
        .executeTakeFirst();
      const current = row ?? (await find(id));
      if (!current) throw new Error(`test payment intent ${id} vanished`);
      return reshape(current);
    },

    async retrieveIntent(id) {
      const row = await find(id);
      return row ? reshape(row) : null;
    },

    async refundIntent(id, idempotencyKey, amountCents) {
      if (amountCents === undefined) {
        // Refunding in full twice gives back nothing more: the condition is the idempotency.
        await db
          .updateTable('payment_intents')
          .set((eb) => ({ refunded_cents: eb.ref('amount_cents'), updated_at: clock.now() }))
          .where('id', '=', id)
          .where('status', '=', 'succeeded')
          .where('refunded_cents', '=', 0)
          .execute();
        return;
      }
      // A part, as Stripe's `amount`: the key is recorded with the refund, so a retry is a no-op, and
      // the intent's refunded total can never pass what was paid.
      await db.transaction().execute(async (trx) => {
        const first = await trx
          .insertInto('test_processor_refunds')
          .values({ idempotency_key: idempotencyKey, payment_intent_id: id, amount_cents: amountCents })
          .onConflict((oc) => oc.column('idempotency_key').doNothing())
          .returning('idempotency_key')
          .executeTakeFirst();
        if (!first) return;
        const refunded = await trx
          .updateTable('payment_intents')
          .set((eb) => ({ refunded_cents: eb('refunded_cents', '+', amountCents), updated_at: clock.now() }))
          .where('id', '=', id)
          .where('status', '=', 'succeeded')
          .where(sql<boolean>`refunded_cents + ${amountCents} <= amount_cents`)
          .executeTakeFirst();
        if (refunded.numUpdatedRows !== 1n)
          throw new PaymentProviderError(`test processor: ${id} cannot be refunded ${amountCents} cents`);
      });
    },

    async cancelIntent(id) {
      await db
        .updateTable('payment_intents')
        .set({ status: 'canceled', updated_at: clock.now() })
        .where('id', '=', id)
        .where('status', 'in', ['requires_payment_method', 'requires_confirmation'])
        .execute();
    },

    async confirm(id, card) {
      const row = await find(id);
      if (!row) return { ok: false, reason: 'not_found' };
      // Confirming a paid intent again (a client retry after a timeout) answers it unchanged.
      if (row.status === 'succeeded') return { ok: true, intent: reshape(row) };
      // A canceled intent (superseded or released by the store) can never be charged.
      if (row.status === 'canceled')
        return {
          ok: false,
          reason: 'declined',
          message: 'This payment was canceled. Please start the checkout again.',
          intent: reshape(row),
        };
      const reason = declineReason(card, clock.now());
      if (reason) {
        const declined = await db
          .updateTable('payment_intents')
          .set({ last_error: reason, updated_at: clock.now() })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return { ok: false, reason: 'declined', message: reason, intent: reshape(declined) };
      }
      const paid = await db
        .updateTable('payment_intents')
        .set({ status: 'succeeded', last_error: null, updated_at: clock.now() })
        .where('id', '=', id)
        .where('status', '!=', 'canceled')
        .returningAll()
        .executeTakeFirst();
      return { ok: true, intent: reshape(paid ?? row) };
    },
  };
}
