/**
 * `npm run start:api`: the commerce API alone (for a separate deployment), on HOST:PORT.
 * Migrates and seeds on start; stops cleanly on SIGTERM/SIGINT.
 */
import { serve } from '@hono/node-server';
import { apiRuntimeOrExit } from './api-runtime.ts';

// The API alone listens on 4000 unless PORT says otherwise (`npm start` serves both on 4321); the
// configuration schema checks HOST and PORT like every other variable.
const { app, logger, close, config } = await apiRuntimeOrExit({ PORT: '4000', ...process.env });
const { HOST: host, PORT: port } = config;

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
