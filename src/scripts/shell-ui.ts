/**
 * Page-wide UI driven by nanostores: toasts (top-right) and the loading overlay,
 * plus the chunk-load reload guard: these are the pages whose islands load chunks.
 * Loaded by every page except the store front and shop, whose script budget (5 KB gzip with the
 * build poller) only allows the cart count (see StoreLayout's `lean`); they load no chunks.
 */
import { $storeLoading } from '../stores/loading.ts';
import { installChunkReload } from './chunk-reload.ts';
import { mountToaster } from './toaster-view.ts';

const OVERLAY_DELAY_MS = 300;

function mountOverlay(overlay: HTMLElement): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A short delay keeps the overlay from flashing over a page that is already drawn.
  $storeLoading.subscribe((loading) => {
    clearTimeout(timer);
    if (loading) timer = setTimeout(() => (overlay.hidden = false), OVERLAY_DELAY_MS);
    else overlay.hidden = true;
  });
}

const region = document.querySelector<HTMLElement>('[data-toaster]');
if (region) mountToaster(region);
const overlay = document.querySelector<HTMLElement>('[data-loading-overlay]');
if (overlay) mountOverlay(overlay);
installChunkReload();
