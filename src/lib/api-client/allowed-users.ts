/** The allowed-users call of a restricted store (spec §1, §7). */
import { sf, type Requester } from './requester.ts';

export type VerifyAllowedUserPayload = {
  email: string;
  browser_token: string;
};

/** What `POST …/allowed_users/verify` answers (the same whether or not the email is listed). */
export type VerifyAllowedUserAnswer = {
  message: string;
};

/** POST store_front/{slug}/allowed_users/verify (+ ?custom_domain= on custom hosts). */
export const verifyAllowedUser = (
  request: Requester,
  slug: string,
  payload: VerifyAllowedUserPayload,
  customDomain?: string | null,
) =>
  request<VerifyAllowedUserAnswer>(
    'POST',
    `${sf(slug)}/allowed_users/verify${customDomain ? `?custom_domain=${encodeURIComponent(customDomain)}` : ''}`,
    payload,
  );
