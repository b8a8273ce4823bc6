/**
 * The product gallery (src/components/catalog/Gallery.astro) for a newly chosen variant: its thumbnails
 * first and its first image shown, by checking that image's radio through its label. A variant without
 * images of its own leaves the gallery in its order and on its image. Kept to a few bytes: the product
 * page's JavaScript is at its budget (docs/decisions/193-variant-images.md).
 */
export function showVariantImages(variantId: string): void {
  let shown = false;
  for (const thumb of document.querySelectorAll<HTMLElement>('[data-variants]')) {
    const own = thumb.matches(`[data-variants~="${variantId}"]`);
    thumb.style.order = own ? '-1' : '';
    if (own && !shown) thumb.click();
    shown ||= own;
  }
}
