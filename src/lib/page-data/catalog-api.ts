/**
 * The part of the API client the catalog loaders use. The build script may pass the shell's
 * client (`createApiClient`) or anything with these methods, e.g. a stub in tests.
 */
import type { ApiClient } from '../api-client.ts';

export type CatalogApi = Pick<
  ApiClient,
  'listProducts' | 'getProduct' | 'listProductVariants' | 'listBundles' | 'getBundle' | 'listBundleItems'
>;

/** True for an API error answer with one of `statuses` (ApiError carries `status`). */
export function hasStatus(error: unknown, ...statuses: number[]): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && statuses.includes(status);
}

/** Ids in our URLs: what the API issues, nothing that could reshape the API path. */
export function isCatalogId(id: string | undefined): id is string {
  return typeof id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(id);
}
