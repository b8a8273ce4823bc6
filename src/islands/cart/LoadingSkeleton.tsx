/**
 * What the cart and checkout show while the cart loads: grey blocks in the shape of the lines to come
 * (thumbnail, name, price), and the words for screen readers ("Loading your cart…"). Rendered on the
 * server too (the checkout's fallback), so it needs no script.
 */
export function LoadingSkeleton({ label, lines = 2 }: { label: string; lines?: number }) {
  return (
    <div className="skeleton" role="status">
      <span className="sr-only">{label}</span>
      {Array.from({ length: lines }, (_, index) => (
        <div key={index} className="skeleton__line" aria-hidden="true">
          <span className="skeleton__block skeleton__thumb" />
          <span className="skeleton__block skeleton__name" />
          <span className="skeleton__block skeleton__price" />
        </div>
      ))}
      <div className="skeleton__block skeleton__summary" aria-hidden="true" />
    </div>
  );
}
