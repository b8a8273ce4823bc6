/**
 * The reference for the PostgreSQL API budgets: the smallest `node:http` server that makes one
 * PostgreSQL round trip per request (a keyed select of the store, a named prepared statement) with the
 * driver and pool size the API uses, on the bench's database. It waits on the database the way the
 * API does, so a long run queue slows it as it slows the API, and a ratio to it judges our code rather
 * than the machine (docs/decisions/215-references-that-share-the-bottleneck.md).
 */
import { createServer } from 'node:http';
import pg from 'pg';

const url = process.env.DATABASE_URL;
const slug = process.env.STORE_SLUG;
if (!url || !slug) throw new Error('bare-pg-server needs DATABASE_URL and STORE_SLUG');
const pool = new pg.Pool({ connectionString: url, max: 10 });
pool.on('error', () => {});
const select = { name: 'store', text: 'SELECT id, slug, title FROM stores WHERE slug = $1', values: [slug] };

const server = createServer((_req, res) => {
  pool.query<{ id: number; slug: string; title: string }>(select).then(
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
