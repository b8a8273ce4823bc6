import { sql } from 'kysely';
import { finalizeCart } from '../checkout/finalize.ts';
import { recordRelease, releaseOf, settleOwedReleases, settleRelease } from '../checkout/release.ts';
import type { StoreRow } from '../db/schema.ts';
import type { AppDeps } from '../http/context.ts';
import { HttpError } from '../http/errors.ts';
import { settleOwedRefunds } from '../orders/refunds.ts';
import type { ProviderIntent } from '../payments/provider.ts';

/**
 * The reconciliation job (docs/decisions/110-reconciliation-job.md): what no shopper's call will do.
 * Each step claims its rows with `FOR UPDATE SKIP LOCKED` in one statement (and, for payments, moves a
 * check time forward), so several API instances on one PostgreSQL run it at once and share the work
 * instead of doing it twice; whatever two of them still meet (one cart's payment) is idempotent anyway.
 */

export type ReconcileSettings = {
  /** A paid cart untouched this long, whose payment succeeded this long ago, is finalized (or refunded). */
  paidAfterMinutes: number;
  /** Carts untouched this long are deleted (their abandoned checkout canceled first). */
  idleCartDays: number;
  /** The rate limits' window: rows of windows that ended are removed. */
  rateLimitWindowSeconds: number;
  /** Rows one statement claims or deletes. */
  batchSize?: number;
};

export type ReconcileSummary = {
  /** Owed releases given back now (`tried` − `settled` are still owed). */
  owedRefunds: { tried: number; settled: number };
  /** Console refunds the provider had not confirmed, asked again (docs/decisions/198-console-orders.md). */
  consoleRefunds: { tried: number; settled: number };
  /** Carts whose payment the provider was asked about. */
  paidCarts: {
    checked: number;
    finalized: number;
    refunded: number;
    canceled: number;
    waiting: number;
    failed: number;
  };
  idleCarts: { deleted: number };
  rateLimits: { deleted: number };
  /** Steps that threw (logged); the others still ran. */
  errors: number;
};

type Deps = AppDeps;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Statements per step and run at most, so one run stays short however much has piled up. */
const MAX_BATCHES = 20;

export function reconcileSettings(config: AppDeps['config']): ReconcileSettings {
  return {
    paidAfterMinutes: config.RECONCILE_PAID_AFTER_MINUTES,
    idleCartDays: config.IDLE_CART_DAYS,
    rateLimitWindowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
  };
}

/** One run of every step; each step that did something logs its counts, and a failing step does not stop the others. */
export async function reconcileOnce(
  deps: Deps,
  settings: ReconcileSettings = reconcileSettings(deps.config),
): Promise<ReconcileSummary> {
  const { logger } = deps;
  const summary: ReconcileSummary = {
    owedRefunds: { tried: 0, settled: 0 },
    consoleRefunds: { tried: 0, settled: 0 },
    paidCarts: { checked: 0, finalized: 0, refunded: 0, canceled: 0, waiting: 0, failed: 0 },
    idleCarts: { deleted: 0 },
    rateLimits: { deleted: 0 },
    errors: 0,
  };
  const step = async <K extends keyof Omit<ReconcileSummary, 'errors'>>(
    name: K,
    run: () => Promise<ReconcileSummary[K]>,
  ) => {
    const started = performance.now();
    try {
      summary[name] = await run();
      // Every minute in every instance: a step that found nothing to do stays out of the log.
      if (Object.values(summary[name]).some((count) => count > 0))
        logger.info({ step: name, ...summary[name], ms: Math.round(performance.now() - started) }, 'reconciliation');
    } catch (error) {
      summary.errors++;
      logger.error({ step: name, err: error }, 'reconciliation step failed');
    }
  };
  // Owed refunds first: a release a payment step records below is given back there and then.
  await step('owedRefunds', () => settleOwedReleases(deps, settings.batchSize));
  await step('consoleRefunds', () => settleOwedRefunds(deps, settings.batchSize));
  await step('paidCarts', () => reconcilePaidCarts(deps, settings));
  await step('idleCarts', () => deleteIdleCarts(deps, settings));
  await step('rateLimits', () => deleteExpiredRateLimits(deps, settings));
  return summary;
}

/**
 * Carts with a payment attached and no order, untouched for `paidAfterMinutes`: a succeeded payment
 * becomes its order through finalizeCart (the shopper's browser closed after the card was confirmed),
 * or is refunded when it cannot; a checkout abandoned for `idleCartDays` has its open payment canceled,
 * which lets its cart be deleted. Each cart is asked about again after a quarter of its idle time
 * (between a minute and a day), so abandoned checkouts do not cost a provider call every minute.
 */
async function reconcilePaidCarts(deps: Deps, settings: ReconcileSettings): Promise<ReconcileSummary['paidCarts']> {
  const { db, payments, logger } = deps;
  const counts = { checked: 0, finalized: 0, refunded: 0, canceled: 0, waiting: 0, failed: 0 };
  if (!payments) return counts;
  const now = deps.clock.now();
  const paidBefore = new Date(now.getTime() - settings.paidAfterMinutes * MINUTE_MS);
  const idleBefore = new Date(now.getTime() - settings.idleCartDays * DAY_MS);
  const stores = new Map<number, StoreRow>();
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const claimed = await db
      .updateTable('carts')
      .set({ payment_checked_at: now })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('carts as c')
          .select('c.id')
          .where('c.payment_intent_id', 'is not', null)
          .where('c.updated_at', '<', paidBefore)
          .where((eb) =>
            eb.or([
              eb('c.payment_checked_at', 'is', null),
              eb(
                'c.payment_checked_at',
                '<',
                sql<Date>`${now}::timestamptz - least(greatest((${now}::timestamptz - c.updated_at) / 4, interval '1 minute'), interval '1 day')`,
              ),
            ]),
          )
          .orderBy(sql`c.payment_checked_at nulls first`)
          .limit(settings.batchSize ?? 100)
          .forUpdate()
          .skipLocked(),
      )
      .returning(['id', 'store_id', 'payment_intent_id', 'updated_at'])
      .execute();
    for (const cart of claimed) {
      counts.checked++;
      const intentId = cart.payment_intent_id!;
      try {
        const intent = await payments.retrieveIntent(intentId);
        const abandoned = cart.updated_at < idleBefore;
        if (intent?.status === 'succeeded' && intent.cartId === cart.id) {
          if (intent.succeededAt && intent.succeededAt > paidBefore) {
            counts.waiting++;
            continue;
          }
          let store = stores.get(cart.store_id);
          if (!store)
            stores.set(
              cart.store_id,
              (store = await db
                .selectFrom('stores')
                .selectAll()
                .where('id', '=', cart.store_id)
                .executeTakeFirstOrThrow()),
            );
          counts[await finalizeOrRefund(deps, store, cart.id, intent)]++;
        } else if (abandoned && intent?.status !== 'processing') {
          // An unpaid payment of a checkout abandoned long ago: canceled, so the cart can go.
          if (intent?.cartId === cart.id) {
            const order = await recordRelease(db, cart.id, intent, 'checkout abandoned');
            if (!order) await settleRelease(deps, intent.id);
          } else {
            await db
              .updateTable('carts')
              .set({ payment_intent_id: null })
              .where('id', '=', cart.id)
              .where('payment_intent_id', '=', intentId)
              .execute();
          }
          counts.canceled++;
        } else counts.waiting++;
      } catch (error) {
        counts.failed++;
        logger.warn(
          { err: error, cart: cart.id, intent: intentId },
          'reconciliation: payment check failed, retried later',
        );
      }
    }
    if (claimed.length < (settings.batchSize ?? 100)) break;
  }
  return counts;
}

/** finalizeCart for a paid intent; a refusal that released the payment, or any other refusal, refunds it. */
async function finalizeOrRefund(
  deps: Deps,
  store: StoreRow,
  cartId: string,
  intent: ProviderIntent,
): Promise<'finalized' | 'refunded' | 'failed'> {
  try {
    await finalizeCart(deps, store, cartId, intent.id);
    deps.logger.info({ cart: cartId, intent: intent.id }, 'reconciliation: paid cart finalized');
    return 'finalized';
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    if (await releaseOf(deps.db, intent.id)) return 'refunded';
    // A conflict (another call is placing this order) or an outage: ask again next time.
    if (error.status === 409 || error.status >= 500) return 'failed';
    // Any other refusal means this payment can never become an order: give it back.
    const order = await recordRelease(deps.db, cartId, intent, `not orderable: ${error.body.message}`);
    if (order) return 'finalized';
    await settleRelease(deps, intent.id);
    return 'refunded';
  }
}

/** Runs `deleteBatch` (one statement deleting at most `size` rows) until a batch comes back short. */
async function deleteInBatches(
  size: number,
  deleteBatch: () => Promise<{ numDeletedRows: bigint }>,
): Promise<{ deleted: number }> {
  let deleted = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const n = Number((await deleteBatch()).numDeletedRows);
    deleted += n;
    if (n < size) break;
  }
  return { deleted };
}

/**
 * Carts untouched for `idleCartDays`, in batches — never one with a payment attached (pending) or a
 * release not yet given back (owed). Their lines and gift cards go with them; orders keep their own copy.
 */
async function deleteIdleCarts(deps: Deps, settings: ReconcileSettings): Promise<ReconcileSummary['idleCarts']> {
  const idleBefore = new Date(deps.clock.now().getTime() - settings.idleCartDays * DAY_MS);
  const size = settings.batchSize ?? 500;
  return deleteInBatches(size, () =>
    deps.db
      .deleteFrom('carts')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('carts as c')
          .select('c.id')
          .where('c.updated_at', '<', idleBefore)
          .where('c.payment_intent_id', 'is', null)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('payment_releases as r')
                  .select('r.cart_id')
                  .whereRef('r.cart_id', '=', 'c.id')
                  .where('r.released_at', 'is', null),
              ),
            ),
          )
          .limit(size)
          .forUpdate()
          .skipLocked(),
      )
      .executeTakeFirst(),
  );
}

/** Rate-limit rows of windows that have ended (the database counters; Redis expires its own). */
async function deleteExpiredRateLimits(
  deps: Deps,
  settings: ReconcileSettings,
): Promise<ReconcileSummary['rateLimits']> {
  const windowMs = settings.rateLimitWindowSeconds * 1000;
  const endedBefore = new Date(deps.clock.now().getTime() - windowMs);
  const size = (settings.batchSize ?? 500) * 10;
  return deleteInBatches(size, () =>
    deps.db
      .deleteFrom('rate_limits')
      .where('key', 'in', (eb) =>
        eb
          .selectFrom('rate_limits')
          .select('key')
          .where('window_start', '<=', endedBefore)
          .limit(size)
          .forUpdate()
          .skipLocked(),
      )
      .executeTakeFirst(),
  );
}

export type ReconciliationRunner = {
  /** Runs now (or joins the run in progress). */
  runOnce(): Promise<ReconcileSummary>;
  /** Stops the schedule and waits for the run in progress. */
  stop(): Promise<void>;
};

/** Runs the job every `everySeconds` in this process (0: only when asked); runs never overlap. */
export function startReconciliation(
  deps: Deps,
  everySeconds: number,
  settings: ReconcileSettings = reconcileSettings(deps.config),
): ReconciliationRunner {
  let running: Promise<ReconcileSummary> | null = null;
  const runOnce = () =>
    (running ??= reconcileOnce(deps, settings).finally(() => {
      running = null;
    }));
  const timer = everySeconds > 0 ? setInterval(() => void runOnce().catch(() => {}), everySeconds * 1000) : null;
  timer?.unref();
  return {
    runOnce,
    async stop() {
      if (timer) clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
