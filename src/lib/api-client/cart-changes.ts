/** Changing the shopper's cart: lines, the address, gift cards. Each answers the cart as it is now. */
import type { Cart } from '../contract/answers.ts';
import type { AddLinePayload, AddressPayload, ChangeQuantityPayload, GiftCardPayload } from '../contract/payloads.ts';
import { seg, sf, type Requester } from './requester.ts';

/** POST store_front/{slug}/cart/cart_line_items. */
export const addCartLine = (request: Requester, slug: string, payload: AddLinePayload) =>
  request<Cart>('POST', `${sf(slug)}/cart/cart_line_items`, payload);

/** PATCH store_front/{slug}/cart/cart_line_items/{id}. */
export const changeCartLine = (request: Requester, slug: string, lineId: string, payload: ChangeQuantityPayload) =>
  request<Cart>('PATCH', `${sf(slug)}/cart/cart_line_items/${seg(lineId)}`, payload);

/** DELETE store_front/{slug}/cart/cart_line_items/{id}. */
export const removeCartLine = (request: Requester, slug: string, lineId: string) =>
  request<Cart>('DELETE', `${sf(slug)}/cart/cart_line_items/${seg(lineId)}`);

/** PUT store_front/{slug}/cart (address). */
export const putAddress = (request: Requester, slug: string, payload: AddressPayload) =>
  request<Cart>('PUT', `${sf(slug)}/cart`, payload);

/** POST store_front/{slug}/gift_cards/apply. */
export const applyGiftCard = (request: Requester, slug: string, payload: GiftCardPayload) =>
  request<Cart>('POST', `${sf(slug)}/gift_cards/apply`, payload);

/** POST store_front/{slug}/gift_cards/{id}/remove. */
export const removeGiftCard = (request: Requester, slug: string, giftCardId: string, payload: GiftCardPayload) =>
  request<Cart>('POST', `${sf(slug)}/gift_cards/${seg(giftCardId)}/remove`, payload);
