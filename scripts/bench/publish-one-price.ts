/**
 * The editor's publish after one price change (docs/decisions/211-incremental-builds.md): a running
 * storefront (started first, untimed, as `npm start` starts: with its start-up publish) changes one product's
 * price in its own database, then publishes as the console's Publish does and is timed until the build is
 * live. The embedded database has one process at a time, so the change is made by the storefront that
 * publishes. Prints one JSON line: `{"publishSeconds", "pages", "reused"}`.
 */
import { startStorefront } from '../../src/front/start-storefront.ts';
import { changeOnePrice } from './change-one-price.ts';

const storefront = await startStorefront({ port: 0, host: '127.0.0.1', snapshotOnStart: true, log: () => {} });
try {
  await changeOnePrice(storefront.db);
  const started = performance.now();
  const build = await storefront.rebuild();
  const publishSeconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ publishSeconds, pages: build.pages, reused: build.reused }));
} finally {
  await storefront.close();
}
