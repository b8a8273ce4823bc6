/**
 * Every store page's boot script, vanilla and tiny (the store front and shop pages allow 5 KB gzip
 * for it and the build poller together; no framework).
 * - Fills the header's cart count from $cart and loads the cart; its cart icon goes through the icon loader.
 * - On build snapshots, runs the store-loading rules (spec §4) when the URL carries an access link
 *   or the cart call fails (how a store that became restricted or was removed after the build
 *   shows itself); on-demand pages were already checked by the middleware.
 */
import { browserCookieJar, renderCookies } from '../lib/cookies.ts';
import { mountIcons } from '../lib/icon-loader.ts';
import { readShellData } from '../lib/shell-data.ts';
import { $cartCount, loadCart } from '../stores/cart-core.ts';
import { setStore } from '../stores/store.ts';

/**
 * The spec §4 check, loaded only when it runs (an access link in the URL, or the cart call failed):
 * its decision code is ≈ 1 KB gzip the store front's 5 KB budget does not have room for.
 */
const checkStore = (customDomain: string | null): Promise<boolean> =>
  import('./store-check.ts').then((module) => module.checkStore(customDomain));

const COUNT_KEY = 'cart-count:';

function mountCartCount(slug: string): void {
  const counts = document.querySelectorAll<HTMLElement>('[data-cart-count]');
  const key = COUNT_KEY + slug;
  // The last known count shows at once on the next page instead of flashing 0.
  const remembered = sessionStorage.getItem(key);
  if (remembered) counts.forEach((node) => (node.textContent = remembered));
  $cartCount.listen((count) => {
    counts.forEach((node) => (node.textContent = String(count)));
    sessionStorage.setItem(key, String(count));
  });
}

async function boot(): Promise<void> {
  const shell = readShellData(document);
  if (!shell) return;
  const { store, prerendered, customDomain } = shell;
  setStore(store, shell.linkBase);
  mountCartCount(store.slug);
  const header = document.querySelector('header');
  if (header) mountIcons(header);
  // The search's instant results load on first use, not with the page (docs/decisions/191-search-engine.md).
  document
    .querySelector('#site-search-q')
    ?.addEventListener('focus', () => void import('./search-box.ts'), { once: true });

  if (prerendered) {
    if (/[?&](uuid|token)=/.test(location.search) && !(await checkStore(customDomain))) return;
    // The snapshot holds the store as built: its cookies (slug, stale access token) are written here.
    const jar = browserCookieJar();
    for (const cookie of renderCookies(store, customDomain)) jar.set(cookie);
  }
  const cart = await loadCart(store.slug);
  if (!cart && prerendered) await checkStore(customDomain);

  // A page restored from the back-forward cache shows an old count: refresh it.
  addEventListener('pageshow', (event) => {
    if (event.persisted) void loadCart(store.slug);
  });
}

void boot();
