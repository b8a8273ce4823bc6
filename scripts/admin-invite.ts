/**
 * `npm run admin:invite -- --store acme --email you@example.com --role owner`: gives someone a role in a
 * store's console (creating the operator when new), records it in the audit log and prints a one-time
 * sign-in link (docs/decisions/197-operator-auth.md). How the first owner of a store is made.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { inviteOperatorPayload } from '../src/lib/contract/payloads.ts';
import { loadConfig, publicSiteUrl } from '../src/server/config.ts';
import { recordAudit } from '../src/server/console/audit.ts';
import { grantRole } from '../src/server/console/operators.ts';
import { newSignInLink, SIGN_IN_LINK_MINUTES } from '../src/server/console/sign-in-links.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { openDatabaseOrExit } from './api-runtime.ts';

const USAGE = 'Usage: npm run admin:invite -- --store <slug> --email <address> --role <owner|editor>';

const argsSchema = inviteOperatorPayload.extend({
  store: z
    .string({ error: 'the store slug is required (--store acme)' })
    .trim()
    .min(1, 'the store slug is required (--store acme)'),
  role: z.enum(['owner', 'editor'], { error: '--role must be owner or editor' }),
});

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    options: { store: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
    strict: true,
  }));
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const parsed = argsSchema.safeParse(values);
if (!parsed.success) fail(parsed.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`).join('\n'));
const { store, email, role } = parsed.data;

const config = loadConfig();
const db = openDatabaseOrExit(config);
try {
  await migrateToLatest(db);
  const now = new Date();
  const link = await db.transaction().execute(async (trx) => {
    const granted = await grantRole(trx, store, email, role);
    if (!granted) return null;
    await recordAudit(trx, {
      storeId: granted.storeId,
      operatorId: null,
      actor: 'npm run admin:invite',
      action: 'staff.invite',
      entity: 'operator',
      entityId: String(granted.operatorId),
      before: null,
      after: { email, role },
      at: now,
    });
    return newSignInLink(trx, granted.operatorId, publicSiteUrl(process.env, config), now);
  });
  if (!link) {
    console.error(`No store "${store}" in this database (import one with npm run import -- catalog.json).`);
    process.exitCode = 1;
  } else {
    console.log(
      `${email} is ${role === 'owner' ? 'an owner' : 'an editor'} of ${store}. Sign-in link (works once, within ${SIGN_IN_LINK_MINUTES} minutes):\n${link}`,
    );
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
