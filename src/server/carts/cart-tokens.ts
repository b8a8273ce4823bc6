import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Cart tokens the API issues and can recognise without a database read: 24 random bytes and an
 * HMAC-SHA256 of them (truncated to 16 bytes) under a secret every instance shares, both base64url.
 * docs/decisions/111-signed-cart-tokens-and-client-addresses.md.
 */
export type CartTokens = {
  /** A new token, signed. */
  issue(): string;
  /** Whether this process's secret signed `token` (constant time; no I/O). */
  isIssued(token: string): boolean;
};

const RANDOM_BYTES = 24;
const MAC_BYTES = 16;
// base64url without padding: 24 bytes → 32 characters, 16 bytes → 22.
const RANDOM_CHARS = 32;
const TOKEN_LENGTH = RANDOM_CHARS + 22;
const TOKEN_FORMAT = /^[A-Za-z0-9_-]+$/;

/** Signs and checks cart tokens with `secret` (CART_TOKEN_SECRET, or the one kept in the database). */
export function cartTokenSigner(secret: string | Buffer): CartTokens {
  const mac = (random: string) => createHmac('sha256', secret).update(random).digest().subarray(0, MAC_BYTES);
  return {
    issue() {
      const random = randomBytes(RANDOM_BYTES).toString('base64url');
      return random + mac(random).toString('base64url');
    },
    isIssued(token) {
      if (token.length !== TOKEN_LENGTH || !TOKEN_FORMAT.test(token)) return false;
      const random = token.slice(0, RANDOM_CHARS);
      const given = Buffer.from(token.slice(RANDOM_CHARS), 'base64url');
      return given.length === MAC_BYTES && timingSafeEqual(given, mac(random));
    },
  };
}
