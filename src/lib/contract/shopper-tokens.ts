/**
 * The shopper's tokens (spec §6–§7). Each lives in a cookie of this name and travels to the API as a
 * request header of the same name, so one table serves the cookies, the API client, the API's CORS
 * list and the front's "never cache this" list.
 */
export const SHOPPER_TOKEN = {
  /** Identifies the shopper's cart. */
  recipientToken: 'recipient-token',
  /** Open a restricted store: an allowed recipient, an allowed domain, a verified browser. */
  allowedRecipientToken: 'allowed-recipient-token',
  allowedDomainToken: 'allowed-domain-token',
  browserToken: 'browser_token',
} as const;

export type ShopperTokenName = (typeof SHOPPER_TOKEN)[keyof typeof SHOPPER_TOKEN];

/** Every shopper token's name: the headers an API answer may depend on for one shopper alone. */
export const SHOPPER_TOKENS: readonly ShopperTokenName[] = Object.values(SHOPPER_TOKEN);
