/** The demo data's console owner: `npm start` on the demo data prints a sign-in link for them. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { grantRole } from './operators.ts';
import { newSignInLink } from './sign-in-links.ts';

export const DEMO_OWNER_EMAIL = 'owner@acme.example';
/** The restricted demo store's own owner, who manages its recipients and domain tokens (ADR 204). */
export const DEMO_VIP_OWNER_EMAIL = 'owner@vip.example';

/** Makes the demo owners owners of the demo stores `acme` and `vip` (loaded with the demo data only). */
export async function seedDemoOwner(db: Kysely<Database>): Promise<void> {
  await grantRole(db, 'acme', DEMO_OWNER_EMAIL, 'owner');
  await grantRole(db, 'vip', DEMO_VIP_OWNER_EMAIL, 'owner');
}

/** A fresh sign-in link of the demo owner, or null when the database has none (not the demo data). */
export async function demoOwnerSignInLink(db: Kysely<Database>, siteUrl: string, now: Date): Promise<string | null> {
  const owner = await db
    .selectFrom('operators as o')
    .innerJoin('store_operators as so', 'so.operator_id', 'o.id')
    .select('o.id')
    .where('o.email', '=', DEMO_OWNER_EMAIL)
    .executeTakeFirst();
  return owner ? newSignInLink(db, owner.id, siteUrl, now) : null;
}
