/**
 * Page-wide UI driven by nanostores: toasts (top-right), the loading overlay and the page alert,
 * plus the chunk-load reload guard: these are the pages whose islands load chunks.
 * Loaded by every page except the store front and shop, whose script budget (5 KB gzip with the
 * build poller) only allows the cart count (see StoreLayout's `lean`); they load no chunks.
 */
import { $loading } from '../stores/loading.ts';
import { $alert } from '../stores/notifications.ts';
import { installChunkReload } from './chunk-reload.ts';
import { mountToaster } from './toaster-view.ts';

const OVERLAY_DELAY_MS = 300;

function mountOverlay(overlay: HTMLElement): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A short delay keeps the overlay from flashing over a page that is already drawn.
  $loading.subscribe((loading) => {
    clearTimeout(timer);
    if (loading) timer = setTimeout(() => (overlay.hidden = false), OVERLAY_DELAY_MS);
    else overlay.hidden = true;
  });
}

function mountAlert(slot: HTMLElement): void {
  $alert.subscribe((alert) => {
    slot.replaceChildren();
    if (!alert) return;
    const box = document.createElement('div');
    box.className = `alert alert--${alert.kind}`;
    box.textContent = alert.message;
    box.setAttribute('role', alert.kind === 'error' ? 'alert' : 'status');
    slot.append(box);
  });
}

const region = document.querySelector<HTMLElement>('[data-toaster]');
if (region) mountToaster(region);
const overlay = document.querySelector<HTMLElement>('[data-loading-overlay]');
if (overlay) mountOverlay(overlay);
const slot = document.querySelector<HTMLElement>('[data-alert]');
if (slot) mountAlert(slot);
installChunkReload();
