/** The browser's low-level requester, shared by every script on the page (see api-request.ts). */
import { browserCookieJar } from './cookies.ts';
import { createRequester, publicApiBaseUrl, type Requester } from './api-request.ts';

let requester: Requester | undefined;

/** The shared requester: cookies from document.cookie, base URL from PUBLIC_API_BASE_URL. */
export function browserRequester(): Requester {
  requester ??= createRequester({ baseUrl: publicApiBaseUrl(), cookies: browserCookieJar() });
  return requester;
}
