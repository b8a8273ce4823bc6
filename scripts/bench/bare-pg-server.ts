/**
 * The reference for the PostgreSQL API budgets: the smallest `node:http` server that makes one
 * PostgreSQL round trip per request with the driver and pool size the API uses, on the bench's
 * database: `GET /read` a keyed select of the store, `GET /write` an insert committed on its own (so it
 * waits for the WAL to reach the disk, as every cart write does), `GET /take` one unit taken from one
 * of three rows in turn, committed on its own (what every order does last, on the same few hot rows).
 * It waits on the database, the disk and the rows' locks the way the API does, so a long run queue or
 * a busy disk slows it as it slows the API, and a ratio to it judges our code rather than the machine
 * (docs/decisions/215-references-that-share-the-bottleneck.md, 218-orders-against-hot-row-takes.md).
 */
import { createServer } from 'node:http';
import pg from 'pg';

const url = process.env.DATABASE_URL;
const slug = process.env.STORE_SLUG;
if (!url || !slug) throw new Error('bare-pg-server needs DATABASE_URL and STORE_SLUG');
const pool = new pg.Pool({ connectionString: url, max: 10 });
pool.on('error', () => {});
const select = { name: 'store', text: 'SELECT id, slug, title FROM stores WHERE slug = $1', values: [slug] };
const insert = {
  name: 'write',
  text: 'INSERT INTO bench_reference_writes (slug) VALUES ($1) RETURNING id, slug, now() AS at',
  values: [slug],
};
const HOT_ROWS = 3;
const take = (row: number) => ({
  name: 'take',
  text: 'UPDATE bench_reference_stock SET units = units - 1 WHERE id = $1 RETURNING id, units',
  values: [row],
});
let taken = 0;
// The bench's database is made for one run and dropped after it, these tables with it.
await pool.query('CREATE TABLE IF NOT EXISTS bench_reference_writes (id bigserial PRIMARY KEY, slug text NOT NULL)');
await pool.query('CREATE TABLE IF NOT EXISTS bench_reference_stock (id int PRIMARY KEY, units bigint NOT NULL)');
await pool.query(
  `INSERT INTO bench_reference_stock SELECT i, 1000000000 FROM generate_series(1, ${HOT_ROWS}) i ON CONFLICT DO NOTHING`,
);

const statement = (url: string | undefined) =>
  url === '/write' ? insert : url === '/take' ? take((taken++ % HOT_ROWS) + 1) : select;

const server = createServer((req, res) => {
  pool.query<Record<string, unknown>>(statement(req.url)).then(
    ({ rows }) => {
      const body = JSON.stringify({ data: { id: String(rows[0]?.id), type: 'store', attributes: rows[0] } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    },
    () => {
      res.writeHead(503).end();
    },
  );
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 4472), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
