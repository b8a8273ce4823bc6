/** Console sign-in for API tests: an operator with a role, signed in through the real link flow. */
import { grantRole } from '../../../src/server/console/operators.ts';
import type { OperatorRole } from '../../../src/lib/contract/answers.ts';
import type { ApiAnswer, RequestOptions, TestApp } from './test-app.ts';

export type Operator = {
  email: string;
  cookie: string;
  csrf: string;
  /** A console call with this operator's cookie, the site's origin and (on writes) the CSRF token. */
  call<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiAnswer<T>>;
};

export const siteOrigin = (api: TestApp) => new URL(api.baseUrl).origin;

/** The token of the newest sign-in link mailed to `email` (read from the outbox). */
export async function mailedToken(api: TestApp, email: string): Promise<string> {
  const mail = await api.db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const token = /\/admin\/signin\?token=([\w-]+)/.exec(mail.text_body)?.[1];
  if (!token) throw new Error(`no sign-in link in the mail to ${email}`);
  return token;
}

/** Spends a token and answers the session's cookie and CSRF token. */
export async function confirmToken(
  api: TestApp,
  token: string,
): Promise<{ cookie: string; csrf: string; answer: ApiAnswer }> {
  const answer = await api.call('POST', '/admin/sign_in/confirm', {
    body: { token },
    headers: { origin: siteOrigin(api) },
  });
  const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { cookie, csrf: answer.body?.csrf_token ?? '', answer };
}

/** Signs an operator in as a browser would: asks for a link, spends the mailed token. */
export async function signIn(api: TestApp, email: string): Promise<Operator> {
  const asked = await api.call('POST', '/admin/sign_in', { body: { email }, headers: { origin: siteOrigin(api) } });
  if (asked.status !== 202) throw new Error(`sign-in request answered ${asked.status}`);
  const { cookie, csrf, answer } = await confirmToken(api, await mailedToken(api, email));
  if (answer.status !== 200) throw new Error(`sign-in confirm answered ${answer.status}: ${answer.text}`);
  return {
    email,
    cookie,
    csrf,
    call(method, path, options = {}) {
      const write = method !== 'GET';
      return api.call(method, path, {
        ...options,
        headers: {
          cookie,
          origin: siteOrigin(api),
          ...(write ? { 'x-csrf-token': csrf } : {}),
          ...options.headers,
        },
      });
    },
  };
}

/** An operator with a role in a store, signed in. */
export async function operatorOf(api: TestApp, slug: string, email: string, role: OperatorRole): Promise<Operator> {
  await grantRole(api.db, slug, email, role);
  return signIn(api, email);
}
