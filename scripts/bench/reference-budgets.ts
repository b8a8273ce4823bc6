import type { LoadFigures } from './api-bench.ts';
import type { BenchResults, BudgetResult } from './budgets.ts';

/**
 * The paced rate of the latency budgets as a fraction of the one-round-trip PostgreSQL reference
 * measured beside them (scripts/bench/bare-pg-server.ts): low enough that our slowest budgeted call,
 * a first add to cart, is not saturated on a busy machine either
 * (docs/decisions/215-references-that-share-the-bottleneck.md).
 */
export const PACED_FRACTION_OF_PG_REFERENCE = 1 / 40;
/** Our paced p99 may be this many times the reference's p99 at the same rate (ADR 215). */
export const P99_OF_PG_REFERENCE = 10;
/** GET store_front's server CPU per request may be at most 2× the bare `node:http` answer's (ADR 215). */
export const STORE_FRONT_CPU_OF_BARE = 0.5;
/** nginx's CPU per static request as a fraction of ours: the static budget on a loaded machine (ADR 215). */
export const STATIC_CPU_OF_NGINX = 0.15;

export const thousands = (n: number) => n.toLocaleString('en-US');
export const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;
const micros = (f: LoadFigures) => `${f.cpuMicrosPerRequest ?? '?'} µs`;

/** "machine, load": the conditions a section's figures were taken in, printed beside every ratio. */
export function conditions(r: BenchResults, section: string): string {
  const m = r.measured?.[section];
  if (!m) return 'machine not recorded';
  return `${m.machine ?? 'machine not recorded'}, load ${m.loadAverage}`;
}

/** `reference`'s server CPU per request over `ours`: 1 when ours costs as little, 0.5 when twice as much. */
function cpuRatio(ours: LoadFigures, reference: LoadFigures): number | undefined {
  if (!ours.cpuMicrosPerRequest || !reference.cpuMicrosPerRequest) return undefined;
  return reference.cpuMicrosPerRequest / ours.cpuMicrosPerRequest;
}

/**
 * The API and static budgets, each a ratio to a reference that waits on what our code waits on, or
 * judged by server CPU per request, which a long run queue does not divide among processes (ADR 215).
 */
export function referenceBudgets(r: BenchResults): BudgetResult[] {
  const out: BudgetResult[] = [];
  const add = (budget: string, measured: string, pass: boolean) => out.push({ budget, measured, pass });

  const reference = r.api?.pgReference;
  const fraction = `1/${Math.round(1 / PACED_FRACTION_OF_PG_REFERENCE)}`;
  for (const fixed of r.api?.fixedRate ?? []) {
    // A run that could not keep the offered rate, or answered errors, misses the budget too.
    const kept = fixed.requestsPerSecond >= (fixed.offeredRate ?? 0) * 0.95 && fixed.non2xx === 0 && fixed.errors === 0;
    // A read is held to the reference's read, a cart write to its committed insert (it waits on the disk too).
    const isRead = fixed.name.startsWith('GET');
    const same = isRead ? reference?.paced : reference?.pacedWrite;
    const bound = same ? same.p99Ms * P99_OF_PG_REFERENCE : 0;
    add(
      `${fixed.name} p99 ≤ ${P99_OF_PG_REFERENCE}× a node:http server's doing one PostgreSQL ${isRead ? 'read' : 'committed insert'}, both paced at ${fraction} of its reads/s`,
      reference && same
        ? `${(fixed.p99Ms / same.p99Ms).toFixed(1)}× (${fixed.p99Ms} vs ${same.p99Ms} ms at ${thousands(fixed.requestsPerSecond)} of ${thousands(fixed.offeredRate ?? 0)} req/s offered, reference ${thousands(reference.ceiling.requestsPerSecond)} req/s${fixed.non2xx ? `, ${fixed.non2xx} non-2xx` : ''}; ${conditions(r, 'api')})`
        : 'no reference measured beside it',
      kept && fixed.p99Ms <= bound,
    );
  }

  const bare = r.api?.ceiling;
  const storeFront = r.api?.postgres?.find((f) => f.name.startsWith('GET store_front'));
  if (storeFront && bare) {
    const ratio = cpuRatio(storeFront, bare);
    add(
      `GET store_front/{slug} ≥ ${percent(STORE_FRONT_CPU_OF_BARE)} of bare node:http, by server CPU per request (PostgreSQL)`,
      ratio === undefined
        ? 'no CPU per request measured'
        : `${percent(ratio)} (${micros(storeFront)} vs ${micros(bare)}; ${thousands(storeFront.requestsPerSecond)} of ${thousands(bare.requestsPerSecond)} req/s; ${conditions(r, 'api')})`,
      ratio !== undefined && ratio >= STORE_FRONT_CPU_OF_BARE,
    );
  }

  const ours = r.static?.[0];
  const nginx = r.static?.at(-1);
  if (ours && nginx && ours !== nginx) {
    const ratio = cpuRatio(ours, nginx);
    add(
      `static product page ≥ ${percent(STATIC_CPU_OF_NGINX)} of nginx (1 worker), by server CPU per request`,
      ratio === undefined
        ? 'no CPU per request measured'
        : `${percent(ratio)} (${micros(ours)} vs ${micros(nginx)}; ${thousands(ours.requestsPerSecond)} vs ${thousands(nginx.requestsPerSecond)} req/s, ${percent(ours.requestsPerSecond / nginx.requestsPerSecond)}; ${conditions(r, 'static')})`,
      ratio !== undefined && ratio >= STATIC_CPU_OF_NGINX,
    );
  }
  return out;
}
