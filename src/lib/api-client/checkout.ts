/** Paying and the order: the payment intent, finalize, and the order page's read. */
import type { CheckoutAnswer, Order } from '../contract/answers.ts';
import type { FinalizePayload } from '../contract/payloads.ts';
import { seg, sf, type Requester } from './requester.ts';

/** POST store_front/{slug}/cart/checkout (empty body). */
export const checkout = (request: Requester, slug: string) =>
  request<CheckoutAnswer>('POST', `${sf(slug)}/cart/checkout`, {});

/** POST store_front/{slug}/cart/finalize. */
export const finalize = (request: Requester, slug: string, payload: FinalizePayload) =>
  request<Order>('POST', `${sf(slug)}/cart/finalize`, payload);

/** GET cart/{order_uuid}. */
export const getOrder = (request: Requester, orderUuid: string) => request<Order>('GET', `cart/${seg(orderUuid)}`);
