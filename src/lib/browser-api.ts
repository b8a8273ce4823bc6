/** The browser's API client: one per page, cookies from document.cookie, base URL from PUBLIC_API_BASE_URL. */
import { createApiClient, type ApiClient } from './api-client.ts';
import { browserRequester } from './browser-request.ts';

export { browserRequester } from './browser-request.ts';

let client: ApiClient | undefined;

/** The shared browser client with every API method (created on first use). */
export function browserApi(): ApiClient {
  client ??= createApiClient({ requester: browserRequester() });
  return client;
}
