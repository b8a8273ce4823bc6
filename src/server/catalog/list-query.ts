import { listQuery } from '../../lib/contract/payloads.ts';
import type { ListOptions } from './queries.ts';

/** The contract's list query as the catalog queries take it. */
export const listQuerySchema = listQuery.transform((q): ListOptions => ({
  page: q.page,
  perPage: q.per_page,
  sort: q.sort,
  q: q.q || undefined,
  featured: q.featured === undefined ? undefined : q.featured === 'true',
}));
