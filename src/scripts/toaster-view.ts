/** Draws the toasts of $notifications into the top-right region (loaded on the first toast). */
import { mountIcon } from '../lib/icon-loader.ts';
import { $notifications, dismiss, pauseToasts, resumeToasts, type Toast } from '../stores/notifications.ts';

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

/** A decorative icon through the one loader (lib/icon-loader.ts). */
function icon(name: string): HTMLElement {
  const node = el('span', 'icon');
  node.dataset.icon = name;
  node.setAttribute('aria-hidden', 'true');
  void mountIcon(node);
  return node;
}

function draw(region: HTMLElement, toasts: readonly Toast[]): void {
  region.replaceChildren(
    ...toasts.map((toast) => {
      const item = el('div', `toast toast--${toast.kind}`);
      item.setAttribute('role', toast.kind === 'error' ? 'alert' : 'status');
      const title = el('p', 'toast__title');
      title.append(icon(toast.kind), toast.title);
      item.append(title);
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
      const close = el('button', 'toast__close');
      close.append(icon('close'));
      close.type = 'button';
      close.setAttribute('aria-label', 'Dismiss notification');
      close.addEventListener('click', () => dismiss(toast.id));
      item.append(close);
      return item;
    }),
  );
}

/** Keeps the region in step with $notifications; toasts wait while the pointer or focus is on them. */
export function mountToaster(region: HTMLElement): void {
  $notifications.subscribe((toasts) => draw(region, toasts));
  const resumeUnlessHeld = (next: EventTarget | null) => {
    const focusInside = next instanceof Node ? region.contains(next) : region.contains(document.activeElement);
    if (!focusInside && !region.matches(':hover')) resumeToasts();
  };
  region.addEventListener('pointerenter', pauseToasts);
  region.addEventListener('pointerleave', () => resumeUnlessHeld(document.activeElement));
  region.addEventListener('focusin', pauseToasts);
  region.addEventListener('focusout', (event) => resumeUnlessHeld(event.relatedTarget));
}
