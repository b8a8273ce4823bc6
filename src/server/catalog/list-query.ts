import { z } from 'zod';
import type { ListOptions } from './queries.ts';

/** `page`, `per_page`, `sort`, `q`, `featured` of ListQuery (api-types.ts). */
export const listQuerySchema = z
  .object({
    page: z.coerce
      .number({ error: 'Page must be a whole number of at least 1.' })
      .int('Page must be a whole number of at least 1.')
      .min(1, 'Page must be a whole number of at least 1.')
      .max(100_000)
      .default(1),
    per_page: z.coerce
      .number({ error: 'Per page must be a whole number from 1 to 500.' })
      .int('Per page must be a whole number from 1 to 500.')
      .min(1, 'Per page must be a whole number from 1 to 500.')
      .max(500, 'Per page must be a whole number from 1 to 500.')
      .default(48),
    sort: z
      .enum(['name', '-name', 'price', '-price'], { error: 'Sort must be one of name, -name, price, -price.' })
      .optional(),
    q: z.string().trim().max(100, 'Search text must be at most 100 characters.').optional(),
    featured: z.enum(['true', 'false'], { error: 'Featured must be true or false.' }).optional(),
  })
  .transform((q): ListOptions => ({
    page: q.page,
    perPage: q.per_page,
    sort: q.sort,
    q: q.q || undefined,
    featured: q.featured === undefined ? undefined : q.featured === 'true',
  }));
