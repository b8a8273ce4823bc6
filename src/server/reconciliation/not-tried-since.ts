import { sql, type RawBuilder } from 'kysely';

/**
 * The condition of an owed row the reconciliation job may claim now: never tried, or last tried
 * (`attempted_at`) more than `retryMs` ago (docs/decisions/110-reconciliation-job.md).
 */
export const notTriedSince = (now: Date, retryMs: number): RawBuilder<boolean> =>
  sql<boolean>`(attempted_at is null or attempted_at < ${new Date(now.getTime() - retryMs)})`;
