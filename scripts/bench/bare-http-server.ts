/**
 * The ceiling for API figures: the smallest `node:http` server answering JSON, started by the
 * bench as its own process so it competes for the same cores as the storefront does.
 */
import { createServer } from 'node:http';

const body = JSON.stringify({
  data: { id: '1', type: 'store', attributes: { title: 'Acme Supply Co.', slug: 'acme' } },
});
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 4471), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
