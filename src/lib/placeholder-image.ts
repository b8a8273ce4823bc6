/** The 'No image available' placeholder's text and classes, shared by the Astro and React versions. */

export const PLACEHOLDER_TEXT = 'No image available';

export type PlaceholderSize = 'large' | 'small';

/** Paths whose placeholder takes the compact style (spec §2). */
export function isCompactPlaceholderPath(pathname: string): boolean {
  return /order-confirmation|cart|checkout/.test(pathname);
}

/** CSS classes for a placeholder of `size` on `pathname` (styles in src/styles/shell.css). */
export function placeholderClass(size: PlaceholderSize, pathname: string): string {
  const classes = ['placeholder-image', `placeholder-image--${size}`];
  if (isCompactPlaceholderPath(pathname)) classes.push('placeholder-image--compact');
  return classes.join(' ');
}
