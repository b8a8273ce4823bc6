import { SHOPPER_TOKENS } from '../lib/contract/shopper-tokens.ts';

/**
 * Request headers that may make an API answer one shopper's own (restricted stores' access tokens,
 * the cart token, cookies, credentials): answers to such requests are never kept or shared.
 */
export const SHOPPER_HEADERS: readonly string[] = ['cookie', 'authorization', ...SHOPPER_TOKENS];
