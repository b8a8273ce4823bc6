/**
 * `npm run reconcile`: one run of the reconciliation job (docs/decisions/110) on the database of
 * DATA_DIR / DATABASE_URL, with the payment provider of the environment, then its counts. Safe while
 * API instances run on the same PostgreSQL; PGlite's data folder takes one process at a time, so stop
 * `npm start` first there.
 */
import { apiRuntimeOrExit } from './api-runtime.ts';

// This process only runs the job once; the log keeps its warnings and errors.
const runtime = await apiRuntimeOrExit(
  { LOG_LEVEL: 'warn', ...process.env, RECONCILE_EVERY_SECONDS: '0' },
  { logRequests: false },
);
try {
  const { owedRefunds, consoleRefunds, paidCarts, idleCarts, rateLimits, errors } = await runtime.reconcile();
  const line = (counts: object) =>
    Object.entries(counts)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
  console.log(`owed refunds:      ${line(owedRefunds)}`);
  console.log(`console refunds:   ${line(consoleRefunds)}`);
  console.log(`paid carts:        ${line(paidCarts)}`);
  console.log(`idle carts:        ${line(idleCarts)}`);
  console.log(`rate-limit rows:   ${line(rateLimits)}`);
  if (errors) {
    console.error(`${errors} step(s) failed; see the log above.`);
    process.exitCode = 1;
  }
} finally {
  await runtime.close();
}
