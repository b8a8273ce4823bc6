import type { Order, PaymentIntent } from '../../lib/contract/answers.ts';
import { centsToDecimal } from '../../lib/money.ts';
import type { OrderRow } from '../db/schema.ts';
import type { ProviderIntent } from '../payments/provider.ts';
import { paymentStatus } from './order-status.ts';

/** Order numbers shown to shoppers: "A-10001" and up. */
export const orderNumber = (serial: number) => `A-${10_000 + serial}`;

export function reshapeIntent(intent: ProviderIntent): PaymentIntent {
  return {
    id: intent.id,
    clientSecret: intent.clientSecret,
    amount: centsToDecimal(intent.amountCents),
    currency: 'usd',
    status: intent.status,
    provider: intent.provider,
  };
}

/** An order answer from its immutable snapshot; the client secret is never repeated after payment. */
export function reshapeOrder(row: OrderRow, storeSlug: string): Order {
  const { details } = row;
  return {
    orderDetails: {
      id: row.id,
      number: orderNumber(row.number),
      createdAt: row.created_at.toISOString(),
      status: paymentStatus(row),
      storeSlug,
      cartItems: details.cartItems,
      cartLineItemsSize: details.cartLineItemsSize,
      subTotal: centsToDecimal(row.subtotal_cents),
      tax: centsToDecimal(row.tax_cents),
      shippingFee: centsToDecimal(row.shipping_cents),
      giftCards: details.giftCards,
      total: centsToDecimal(row.total_cents),
      address: details.address,
      refunded: centsToDecimal(row.refunded_cents),
      fulfillment:
        row.fulfilled_at && row.carrier && row.tracking_number
          ? { carrier: row.carrier, trackingNumber: row.tracking_number, fulfilledAt: row.fulfilled_at.toISOString() }
          : null,
    },
    paymentIntent:
      row.payment_intent_id && (row.provider === 'test' || row.provider === 'stripe')
        ? {
            id: row.payment_intent_id,
            clientSecret: '',
            amount: centsToDecimal(row.total_cents),
            currency: 'usd',
            status: 'succeeded',
            provider: row.provider,
          }
        : null,
  };
}
