/** Draws the toasts of $notifications into the top-right region (loaded on the first toast). */
import { $notifications, dismiss, type Toast } from '../stores/notifications.ts';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

function draw(region: HTMLElement, toasts: readonly Toast[]): void {
  region.replaceChildren(
    ...toasts.map((toast) => {
      const item = el('div', `toast toast--${toast.kind}`);
      item.setAttribute('role', toast.kind === 'error' ? 'alert' : 'status');
      item.append(el('p', 'toast__title', toast.title));
      if (toast.message) item.append(el('p', 'toast__message', toast.message));
      if (toast.actions.length) {
        const actions = el('div', 'toast__actions');
        for (const action of toast.actions) {
          const link = el('a', undefined, action.label);
          link.href = action.href;
          actions.append(link);
        }
        item.append(actions);
      }
      const close = el('button', 'toast__close', '×');
      close.type = 'button';
      close.setAttribute('aria-label', 'Dismiss notification');
      close.addEventListener('click', () => dismiss(toast.id));
      item.append(close);
      return item;
    }),
  );
}

/** Keeps the region in step with $notifications. */
export function mountToaster(region: HTMLElement): void {
  $notifications.subscribe((toasts) => draw(region, toasts));
}
