import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.ts';

const MARK = '\u0000arg:';

/**
 * A query whose shape never changes, built and compiled by Kysely once instead of on every call: on the
 * cart's hottest calls building the operation tree cost a fifth of the server's CPU (docs/performance.md).
 *
 * `build` runs once, with a placeholder for each argument; every call then runs the same SQL with its
 * own values in the placeholders' places. So **every value that changes between calls must be an
 * argument**: a value computed inside `build` (a `randomUUID()`, `new Date()`) would be the same on
 * every call. An argument that does not end up as a bound parameter (used as a table name, say) is
 * refused when the query is first built. Lists (`in (…)`) cannot be arguments: their length shapes the SQL.
 */
export function compileOnce<A extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, args: A) => Compilable<R>,
) {
  let compiled: { query: CompiledQuery<R>; slots: ({ arg: keyof A } | { value: unknown })[] } | undefined;
  return async (db: Kysely<Database>, args: A): Promise<R[]> => {
    if (!compiled) {
      const placeholders = Object.fromEntries(Object.keys(args).map((name) => [name, MARK + name])) as A;
      const query = build(db, placeholders).compile();
      const slots = query.parameters.map((p) =>
        typeof p === 'string' && p.startsWith(MARK) ? { arg: p.slice(MARK.length) } : { value: p },
      );
      const unbound = Object.keys(args).filter((name) => !slots.some((s) => 'arg' in s && s.arg === name));
      if (unbound.length)
        throw new Error(`compileOnce: arguments that are not bound parameters of the query: ${unbound.join(', ')}`);
      compiled = { query, slots };
    }
    const { query, slots } = compiled;
    const parameters = slots.map((slot) => ('arg' in slot ? args[slot.arg] : slot.value));
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  };
}
