/**
 * `npm run start:api`: the commerce API alone (for a separate deployment), on HOST:PORT.
 * Migrates and seeds on start; stops cleanly on SIGTERM/SIGINT.
 */
import { serve } from '@hono/node-server';
import { createApiRuntime } from '../src/server/runtime.ts';

const host = process.env['HOST'] ?? '0.0.0.0';
const port = Number(process.env['PORT'] ?? 4000);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a port number (0-65535), got ${process.env['PORT']}`);
  process.exit(1);
}

let runtime;
try {
  runtime = await createApiRuntime(process.env);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  if (error instanceof Error && error.cause) console.error(error.cause);
  process.exit(1);
}
const { app, logger, close } = runtime;

const server = serve({ fetch: app.fetch, hostname: host, port }, (info) => {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  logger.info(`API ready on http://${shown}:${info.port}/api/ (try http://${shown}:${info.port}/api/store_front/acme)`);
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down: finishing open requests');
  const forced = setTimeout(() => {
    logger.error('shutdown took over 10 s, exiting');
    process.exit(1);
  }, 10_000);
  forced.unref();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await close();
  logger.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
