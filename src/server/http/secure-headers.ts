import { secureHeaders } from 'hono/secure-headers';

/**
 * The API's security headers, from Hono's middleware (docs/decisions/003-node-front-serving.md has
 * its cost). Its defaults stand but for three: Strict-Transport-Security is the deployment's to
 * send (a TLS front knows its hosts, `includeSubDomains` could break a sibling), the referrer policy
 * is the storefront's own, and `/api/docs`, the one HTML answer, loads nothing but itself.
 */
export const apiSecureHeaders = secureHeaders({
  strictTransportSecurity: false,
  referrerPolicy: 'strict-origin-when-cross-origin',
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    styleSrc: ["'unsafe-inline'"],
    frameAncestors: ["'none'"],
  },
});
