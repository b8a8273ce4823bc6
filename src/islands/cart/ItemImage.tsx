/** A cart/checkout thumbnail, or the small 'No image available' placeholder (compact on these paths, spec §2). */
import type { Image } from '../../lib/contract/answers.ts';
import { PLACEHOLDER_TEXT, placeholderClass } from '../../lib/placeholder-image.ts';

// Cart and checkout are both compact-placeholder paths; the class does not depend on which.
const PLACEHOLDER_CLASS = placeholderClass('small', '/cart');

export function ItemImage({ image, alt }: { image: Image | null | undefined; alt: string }) {
  if (!image) {
    return (
      <div className={PLACEHOLDER_CLASS} role="img" aria-label={PLACEHOLDER_TEXT}>
        <span aria-hidden="true">{PLACEHOLDER_TEXT}</span>
      </div>
    );
  }
  return (
    <img
      className="cart-entry__image"
      src={image.url}
      alt={image.alt ?? alt}
      width={72}
      height={72}
      loading="lazy"
      decoding="async"
    />
  );
}
