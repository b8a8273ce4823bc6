/**
 * `npm start`: migrations, demo data on an empty database, the storefront and the API on one port.
 */
import { startStorefront } from '../src/front/start-storefront.ts';

const port = Number(process.env.PORT ?? 4321);
const host = process.env.HOST ?? '0.0.0.0';

const storefront = await startStorefront({ port, host, snapshotOnStart: process.env.SNAPSHOT_ON_START !== '0' });
const base = storefront.url;
console.log(`
Storefront ready at ${base}
  Demo store        ${base}/acme
  Shop              ${base}/acme/shop
  Cart              ${base}/acme/cart
  Restricted store  ${base}/vip  (entry link: ${base}/vip?uuid=8f14e45f-ea1c-4b4e-9d6a-000000000001)
  Custom domain     http://shop.acme.test:${port}/  (point shop.acme.test at this machine)
  API               ${base}/api/store_front/acme
`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: closing connections and the database…`);
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await storefront.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
