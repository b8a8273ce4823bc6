/** Reading the shopper's cart: the one cart call every store page makes (its header count). */
import type { Cart } from '../contract/answers.ts';
import { sf, type Requester } from './requester.ts';

/** GET store_front/{slug}/cart. */
export const getCart = (request: Requester, slug: string) => request<Cart>('GET', `${sf(slug)}/cart`);
