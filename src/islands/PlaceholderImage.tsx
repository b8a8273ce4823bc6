import { PLACEHOLDER_TEXT, placeholderClass, type PlaceholderSize } from '../lib/placeholder-image.ts';

interface Props {
  size?: PlaceholderSize;
  /** Defaults to the browser's path; pass it when rendering on the server. */
  pathname?: string;
  className?: string;
}

/** React twin of src/components/PlaceholderImage.astro: 'No image available', large or small. */
export function PlaceholderImage({ size = 'large', pathname, className }: Props) {
  const path = pathname ?? (typeof location === 'undefined' ? '' : location.pathname);
  const classes = [placeholderClass(size, path), className].filter(Boolean).join(' ');
  return (
    <div className={classes} role="img" aria-label={PLACEHOLDER_TEXT}>
      <span aria-hidden="true">{PLACEHOLDER_TEXT}</span>
    </div>
  );
}

export default PlaceholderImage;
