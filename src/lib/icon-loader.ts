/**
 * The one icon loader (spec §9; docs/decisions/130-one-icon-loader.md): every icon — the header's
 * cart, toasts, form controls — is an element `<span class="icon" data-icon="name">` whose box is
 * sized by CSS from the first paint; its file `/icons/{name}.svg` is fetched once per page and
 * drawn as a CSS mask in the text colour. Nothing waits for it, and after 5 s without it the
 * element shows its fallback glyph in the same box (src/styles/icons.css).
 */

/** Spec §9: an icon not loaded within 5 s is given up. */
export const ICON_TIMEOUT_MS = 5000;

const icons = new Map<string, Promise<string | null>>();

/** Where an icon's file is served from (`public/icons/`). */
export const iconUrl = (name: string) => `/icons/${name}.svg`;

/** An object URL of the icon, or null when it failed or took longer than 5 s; fetched once per page, never throws. */
export function loadIcon(name: string): Promise<string | null> {
  let icon = icons.get(name);
  if (!icon) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), ICON_TIMEOUT_MS);
    icon = fetch(iconUrl(name), { signal: abort.signal })
      .then((response) => (response.ok ? response.blob() : null))
      .then((svg) => svg && URL.createObjectURL(svg))
      .catch(() => null)
      .finally(() => clearTimeout(timer));
    icons.set(name, icon);
  }
  return icon;
}

/** Draws the icon an element names, or marks it for its fallback (`data-icon-state`). */
export function mountIcon(element: HTMLElement): Promise<void> {
  return loadIcon(element.dataset.icon ?? '').then((url) => {
    if (url) element.style.setProperty('--icon', `url("${url}")`);
    element.dataset.iconState = url ? 'loaded' : 'fallback';
  });
}

/** Mounts every icon under `root` not mounted yet. */
export function mountIcons(root: ParentNode): void {
  root
    .querySelectorAll<HTMLElement>('[data-icon]:not([data-icon-state])')
    .forEach((element) => void mountIcon(element));
}
