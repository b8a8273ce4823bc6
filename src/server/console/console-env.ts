/** What every console route may read once the gate let it through (docs/decisions/197-operator-auth.md). */
import type { Context } from 'hono';
import type { OperatorRole } from '../../lib/contract/answers.ts';
import type { StoreRow } from '../db/schema.ts';
import type { AppEnv } from '../http/context.ts';
import { HttpError } from '../http/errors.ts';
import type { ConsoleSessionRow } from './sessions.ts';

export type ConsoleEnv = AppEnv & {
  Variables: { session: ConsoleSessionRow; consoleStore: StoreRow; role: OperatorRole };
};

export const OWNERS_ONLY = 'Only the store’s owners can do this.';

export const forbidden = (message: string) => new HttpError(403, { message });

/** An editor on an owner's route is 403; the store check before it already refused everyone else. */
export async function ownersOnly(c: Context<ConsoleEnv>, next: () => Promise<void>): Promise<void> {
  if (c.var.role !== 'owner') throw forbidden(OWNERS_ONLY);
  await next();
}
