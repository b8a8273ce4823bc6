// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { $notifications, notify } from '../../../src/stores/notifications.ts';
import { mountToaster } from '../../../src/scripts/toaster-view.ts';

// Icons (src/lib/icon-loader.ts) ask for their files; there is no server here, so none is found.
beforeEach(() =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('', { status: 404 })),
  ),
);
afterEach(() => vi.unstubAllGlobals());

beforeEach(() => {
  $notifications.set([]);
  document.body.innerHTML = '<section data-toaster aria-label="Notifications"></section>';
});

test('a toast shows its title, message and actions, and its close button has an accessible name', () => {
  const region = document.querySelector<HTMLElement>('[data-toaster]')!;
  mountToaster(region);
  notify({
    kind: 'success',
    title: 'Added to cart',
    actions: [
      { label: 'Checkout', href: '/acme/cart' },
      { label: 'Continue Shopping', href: '/acme' },
    ],
  });
  const toast = region.querySelector('[role="status"]')!;
  expect(toast.querySelector('.toast__title')?.textContent).toBe('Added to cart');
  expect([...toast.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
    ['Checkout', '/acme/cart'],
    ['Continue Shopping', '/acme'],
  ]);
  const close = toast.querySelector<HTMLButtonElement>('button')!;
  expect(close.getAttribute('aria-label')).toBe('Dismiss notification');
  close.click();
  expect(region.children).toHaveLength(0);
});

test('an error toast is announced at once (role alert)', () => {
  const region = document.querySelector<HTMLElement>('[data-toaster]')!;
  mountToaster(region);
  notify({ kind: 'error', title: 'Error', message: 'Record not found.' });
  expect(region.querySelector('[role="alert"] .toast__message')?.textContent).toBe('Record not found.');
});
