import type { MiddlewareHandler } from 'hono';
import { SHOPPER_TOKEN } from '../../lib/contract/shopper-tokens.ts';
import { CART_TOKEN_REFUSED } from '../../lib/contract/messages.ts';
import type { AppDeps, AppEnv } from '../http/context.ts';
import { HttpError } from '../http/errors.ts';
import { clientAddress, enforceLimits } from '../http/rate-limit.ts';

/** 401: the `recipient-token` was not issued here (forged, or signed with another secret). */
export const cartTokenRefused = () =>
  new HttpError(401, { message: CART_TOKEN_REFUSED }, { 'WWW-Authenticate': 'Recipient-Token' });

/**
 * Every cart and gift card call passes here first (docs/decisions/111). A `recipient-token` the API
 * signed is used as it is — a signature check, no statement. A call without one gets a new token in
 * the `recipient-token` answer header; each costs one count against the client's address, which
 * bounds the anonymous carts one client can make (a shopper holding a token is never counted). Any
 * other token is refused with 401, before anything is read or written, so the client can drop it and
 * ask again without one.
 */
export function cartTokenCheck({ cartTokens, rateLimits, config, clock }: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const sent = c.req.header(SHOPPER_TOKEN.recipientToken)?.trim();
    if (sent) {
      if (!cartTokens.isIssued(sent)) throw cartTokenRefused();
      c.set('cartToken', sent);
      return next();
    }
    await enforceLimits(
      rateLimits,
      [{ key: `cart:new:client:${clientAddress(c, config.TRUST_PROXY)}`, max: config.RATE_LIMIT_NEW_CARTS_PER_CLIENT }],
      config.RATE_LIMIT_WINDOW_SECONDS,
      clock.now(),
    );
    const token = cartTokens.issue();
    c.set('cartToken', token);
    c.header(SHOPPER_TOKEN.recipientToken, token);
    return next();
  };
}
