/** Toasts and the page alert (spec §8, §9). */
import { atom } from 'nanostores';
import { notificationFor } from '../lib/error-catalogue.ts';

/** Spec §9. */
export const TOAST_MS = 4500;
export const ADD_TO_CART_TOAST_MS = 2500;
export const TOAST_OFFSET_PX = 16;
export const TOAST_POSITION = 'top-right';

export type ToastKind = 'error' | 'success' | 'info';

export interface ToastAction {
  label: string;
  href: string;
}

export interface Toast {
  id: number;
  kind: ToastKind;
  title: string;
  message: string;
  /** Links shown in the toast, e.g. 'Checkout' and 'Continue Shopping' after an add. */
  actions: ToastAction[];
  durationMs: number;
}

export type NotifyInput = Partial<Omit<Toast, 'id'>> & { title: string };

/** The toasts on screen, oldest first. */
export const $notifications = atom<Toast[]>([]);

let nextId = 1;

/** Removes a toast. */
export function dismiss(id: number): void {
  $notifications.set($notifications.get().filter((toast) => toast.id !== id));
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
  if (toast.durationMs > 0 && typeof setTimeout === 'function') setTimeout(() => dismiss(toast.id), toast.durationMs);
  return toast.id;
}

/** Shows the spec §8 toast for a failed call. */
export function notifyError(error: unknown): number {
  const { title, message } = notificationFor(error);
  return notify({ kind: 'error', title, message });
}

export interface AlertMessage {
  kind: 'error' | 'info' | 'success';
  message: string;
}

/** The page alert (one at a time), or null. */
export const $alert = atom<AlertMessage | null>(null);

export function showAlert(alert: AlertMessage): void {
  $alert.set(alert);
}

export function clearAlert(): void {
  $alert.set(null);
}
