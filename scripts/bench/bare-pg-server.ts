/**
 * The reference for the PostgreSQL API budgets: the smallest `node:http` server that makes one
 * PostgreSQL round trip per request with the driver and pool size the API uses, on the bench's
 * database: `GET /read` a keyed select of the store, `GET /write` an insert committed on its own (so it
 * waits for the WAL to reach the disk, as every cart write does). It waits on the database and the
 * disk the way the API does, so a long run queue or a busy disk slows it as it slows the API, and a
 * ratio to it judges our code rather than the machine (docs/decisions/215-references-that-share-the-bottleneck.md).
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
// The bench's database is made for one run and dropped after it, this table with it.
await pool.query('CREATE TABLE IF NOT EXISTS bench_reference_writes (id bigserial PRIMARY KEY, slug text NOT NULL)');

const server = createServer((req, res) => {
  pool.query<Record<string, unknown>>(req.url === '/write' ? insert : select).then(
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
