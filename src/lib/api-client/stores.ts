/** The store calls (spec §7): what every page asks first. */
import type { StoreInfo } from '../contract/answers.ts';
import { sf, type Requester } from './requester.ts';

/** GET store_front/{slug}. */
export const getStore = (request: Requester, slug: string) => request<StoreInfo>('GET', sf(slug));

/** GET store_front?custom_domain={domain}. */
export const getStoreByDomain = (request: Requester, domain: string) =>
  request<StoreInfo>('GET', `store_front?custom_domain=${encodeURIComponent(domain)}`);
