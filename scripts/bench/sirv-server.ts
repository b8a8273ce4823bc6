/**
 * The library the static path would otherwise use: `sirv` serving a build folder as `npm start`
 * serves it (pre-compressed siblings, ETags, the same security headers), started by the bench as its
 * own process beside the storefront and nginx, so docs/decisions/003-node-front-serving.md can
 * weigh our reader against it with figures from one run.
 */
import { createServer } from 'node:http';
import sirv from 'sirv';

const root = process.env.SIRV_ROOT;
if (!root) throw new Error('SIRV_ROOT names the build folder to serve');

const serve = sirv(root, {
  dev: false,
  etag: true,
  gzip: true,
  brotli: true,
  extensions: ['html'],
  setHeaders(res) {
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'strict-origin-when-cross-origin');
    res.setHeader('cache-control', 'public, max-age=0, must-revalidate');
  },
});
const server = createServer((req, res) => {
  serve(req, res, () => {
    res.statusCode = 404;
    res.end();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 4474), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
