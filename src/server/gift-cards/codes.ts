import { randomInt } from 'node:crypto';

// Crockford base32 without look-alikes (no I, L, O, U): 32 symbols = 5 bits each.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A new gift card code: 16 random symbols = 80 bits, grouped for reading, e.g. "7KQ2-M9XD-4TZB-H1RW". */
export function generateGiftCardCode(): string {
  let raw = '';
  for (let i = 0; i < 16; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
  return raw.match(/.{4}/g)!.join('-');
}

/** Bits of entropy of a generated code (issue 7 asks for at least 60). */
export const GIFT_CARD_CODE_BITS = 16 * Math.log2(ALPHABET.length);
