/**
 * The sections of a store's console, in the order the navigation lists them: the one list the store's
 * panel on /admin and the navigation on every store page are made from.
 */
import type { ConsoleStore } from './StoreGate.tsx';

export type ConsoleSection = {
  /** The page's path under /admin/{slug}/. */
  path: string;
  /** The navigation's word for it. */
  label: string;
  /** The link on /admin, where several stores are listed: it names the store. */
  storeLabel: (title: string) => string;
  ownersOnly: boolean;
  /** Only a restricted store has it (who may enter). */
  restrictedOnly?: boolean;
};

const SECTIONS: ConsoleSection[] = [
  { path: 'products', label: 'Products', storeLabel: (title) => `Products of ${title}`, ownersOnly: false },
  { path: 'collections', label: 'Collections', storeLabel: (title) => `Collections of ${title}`, ownersOnly: false },
  { path: 'bundles', label: 'Bundles', storeLabel: (title) => `Bundles of ${title}`, ownersOnly: false },
  { path: 'gift-cards', label: 'Gift cards', storeLabel: (title) => `Gift cards of ${title}`, ownersOnly: false },
  { path: 'orders', label: 'Orders', storeLabel: (title) => `Orders of ${title}`, ownersOnly: false },
  { path: 'publish', label: 'Publish', storeLabel: (title) => `Publish ${title}`, ownersOnly: false },
  { path: 'settings', label: 'Settings', storeLabel: (title) => `Settings of ${title}`, ownersOnly: true },
  {
    path: 'access',
    label: 'Access',
    storeLabel: (title) => `Access to ${title}`,
    ownersOnly: true,
    restrictedOnly: true,
  },
  { path: 'staff', label: 'Staff', storeLabel: (title) => `Staff of ${title}`, ownersOnly: true },
  { path: 'audit', label: 'Audit log', storeLabel: (title) => `Audit log of ${title}`, ownersOnly: true },
];

/** The sections this operator's role opens in `store`. */
export const sectionsFor = (store: ConsoleStore): ConsoleSection[] =>
  SECTIONS.filter(
    (section) => (!section.ownersOnly || store.role === 'owner') && (!section.restrictedOnly || store.restricted),
  );

export const sectionUrl = (store: ConsoleStore, section: ConsoleSection): string =>
  `/admin/${store.slug}/${section.path}`;
