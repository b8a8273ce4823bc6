/** A cart/checkout thumbnail, or the small 'No image available' placeholder (compact on these paths, spec §2). */
import type { Image } from '../../lib/contract/answers.ts';
import { PLACEHOLDER_TEXT, placeholderClass } from '../../lib/placeholder-image.ts';
import { IMAGE_SLOTS, pictureSources } from '../../lib/responsive-image.ts';

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
  // AVIF/WebP thumbnails where the image has them (docs/decisions/184-responsive-image-derivatives.md).
  return (
    <picture>
      {pictureSources(image.url, 'thumb').map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcset} sizes={IMAGE_SLOTS.thumb.sizes} />
      ))}
      <img
        className="cart-entry__image"
        src={image.url}
        alt={image.alt ?? alt}
        width={72}
        height={72}
        loading="lazy"
        decoding="async"
      />
    </picture>
  );
}
