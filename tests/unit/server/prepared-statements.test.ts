import type pg from 'pg';
import { describe, expect, test } from 'vitest';
import { prepareStatementsOn } from '../../../src/server/db/prepared-statements.ts';

/** A pool client that records what reaches `query`. */
function recordingClient() {
  const calls: unknown[][] = [];
  const client = {
    query: (...args: unknown[]) => (calls.push(args), Promise.resolve({ rows: [] })),
  } as unknown as pg.PoolClient;
  prepareStatementsOn(client);
  return { client, calls };
}

describe('prepareStatementsOn', () => {
  test("Kysely's (text, values) queries become named statements, one name per text", async () => {
    const { client, calls } = recordingClient();
    await client.query('select * from carts where token = $1', ['a']);
    await client.query('select * from carts where token = $1', ['b']);
    await client.query('select * from orders where id = $1', ['c']);
    const [first, second, third] = calls.map(([config]) => config as { name: string; text: string; values: unknown[] });
    expect(first).toMatchObject({ text: 'select * from carts where token = $1', values: ['a'] });
    expect(first!.name).toMatch(/^k\d+$/);
    expect(second).toEqual({ ...first, values: ['b'] });
    expect(third!.name).not.toBe(first!.name);
  });

  test('the same text has the same name on every connection', async () => {
    const a = recordingClient();
    const b = recordingClient();
    await a.client.query('select 1 where $1::int = 1', [1]);
    await b.client.query('select 1 where $1::int = 1', [1]);
    expect((a.calls[0]![0] as { name: string }).name).toBe((b.calls[0]![0] as { name: string }).name);
  });

  test('other call forms pass through untouched', async () => {
    const { client, calls } = recordingClient();
    const config = { text: 'select 1', rowMode: 'array' };
    // A call form outside pg's typings: the point is that it passes through untouched.
    // eslint-disable-next-line @typescript-eslint/await-thenable
    await client.query(config as never);
    await client.query('begin');
    expect(calls[0]![0]).toBe(config);
    expect(calls[1]![0]).toBe('begin');
  });

  test('past the bound, new texts run unnamed instead of growing every connection', async () => {
    const { client, calls } = recordingClient();
    for (let i = 0; i < 1100; i++) await client.query(`select ${i} where $1::int = 1`, [1]);
    const named = calls.filter(([config]) => typeof config === 'object').length;
    expect(named).toBeLessThanOrEqual(1000);
    expect(calls.at(-1)).toEqual(['select 1099 where $1::int = 1', [1], undefined]);
  });
});
