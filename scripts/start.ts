/**
 * `npm start`: migrations, demo data on an empty database, the storefront and the API on one port.
 */
import { startStorefront } from '../src/front/start-storefront.ts';
import { loadConfig } from '../src/server/config.ts';
import { exitWithReason } from './api-runtime.ts';

// A bad variable stops here, before anything starts, with a message naming it.
const { PORT: port, HOST: host, SNAPSHOT_ON_START: snapshotOnStart } = loadConfig();

const storefront = await startStorefront({ port, host, snapshotOnStart }).catch(exitWithReason);
const base = storefront.url;
const consoleLink = await storefront.demoSignInLink();
console.log(`
Storefront ready at ${base}
  Demo store        ${base}/acme
  Shop              ${base}/acme/shop
  Cart              ${base}/acme/cart
  Restricted store  ${base}/vip  (entry link: ${base}/vip?uuid=8f14e45f-ea1c-4b4e-9d6a-000000000001)
  Custom domain     http://shop.acme.test:${port}/  (point shop.acme.test at this machine)
  API               ${base}/api/store_front/acme
  Console           ${base}/admin${
    consoleLink
      ? `\n  Console sign-in   ${consoleLink}\n                    (the demo owner of acme; works once, within 15 minutes; invite others from the console’s Staff page)`
      : ''
  }
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
