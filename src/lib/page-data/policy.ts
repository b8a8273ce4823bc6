import type { PolicyKind } from '../contract/answers.ts';
import { POLICY_KINDS } from '../contract/answers.ts';
import { hasStatus, type CatalogApi } from './catalog-api.ts';

export type PolicyPageData = { kind: PolicyKind; title: string; bodyHtml: string };

/** One of the store's policy pages; null when the kind is unknown or the store has not written it. */
export async function loadPolicy(
  api: CatalogApi,
  { slug, kind }: { slug: string; kind: string | undefined },
): Promise<PolicyPageData | null> {
  const known = POLICY_KINDS.find((k) => k === kind);
  if (!known) return null;
  try {
    return (await api.getPolicy(slug, known)).data.attributes;
  } catch (error) {
    if (hasStatus(error, 404)) return null;
    throw error;
  }
}
