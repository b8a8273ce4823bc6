/** Toasts (spec §8, §9); they sit top-right, 16 px in: `--toast-offset` in src/styles/shell.css. */
import { atom } from 'nanostores';
import { notificationFor } from '../lib/error-catalogue.ts';

/** Spec §9. */
export const TOAST_MS = 4500;
export const ADD_TO_CART_TOAST_MS = 2500;

export type ToastKind = 'error' | 'success' | 'info';

export type ToastAction = {
  label: string;
  href: string;
};

export type Toast = {
  id: number;
  kind: ToastKind;
  title: string;
  message: string;
  /** Links shown in the toast, e.g. 'Checkout' and 'Continue Shopping' after an add. */
  actions: ToastAction[];
  durationMs: number;
};

export type NotifyInput = Partial<Omit<Toast, 'id'>> & { title: string };

/** The toasts on screen, oldest first. */
export const $notifications = atom<Toast[]>([]);

let nextId = 1;

/** What is left of each toast's time on screen, so a pause can give it back (WCAG 2.2.1). */
type DismissTimer = { leftMs: number; since: number; handle?: ReturnType<typeof setTimeout> };
const timers = new Map<number, DismissTimer>();
let paused = false;

function runTimer(id: number, timer: DismissTimer): void {
  timer.since = Date.now();
  timer.handle = setTimeout(() => dismiss(id), timer.leftMs);
}

/** Removes a toast. */
export function dismiss(id: number): void {
  clearTimeout(timers.get(id)?.handle);
  timers.delete(id);
  $notifications.set($notifications.get().filter((toast) => toast.id !== id));
}

/** Holds every toast on screen while the shopper points at or focuses one (WCAG 2.2.1). */
export function pauseToasts(): void {
  if (paused) return;
  paused = true;
  for (const timer of timers.values()) {
    clearTimeout(timer.handle);
    timer.leftMs -= Date.now() - timer.since;
  }
}

/** Lets each toast's remaining time run again. */
export function resumeToasts(): void {
  if (!paused) return;
  paused = false;
  for (const [id, timer] of timers) runTimer(id, timer);
}

/** Shows a toast for `durationMs` (default 4500 ms) and returns its id. */
export function notify(input: NotifyInput): number {
  const toast: Toast = {
    id: nextId++,
    kind: input.kind ?? 'info',
    title: input.title,
    message: input.message ?? '',
    actions: input.actions ?? [],
    durationMs: input.durationMs ?? TOAST_MS,
  };
  $notifications.set([...$notifications.get(), toast]);
  if (toast.durationMs > 0 && typeof setTimeout === 'function') {
    const timer: DismissTimer = { leftMs: toast.durationMs, since: Date.now() };
    timers.set(toast.id, timer);
    if (!paused) runTimer(toast.id, timer);
  }
  return toast.id;
}

/** Shows the spec §8 toast for a failed call. */
export function notifyError(error: unknown): number {
  const { title, message } = notificationFor(error);
  return notify({ kind: 'error', title, message });
}
