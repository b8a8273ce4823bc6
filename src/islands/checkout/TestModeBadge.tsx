/**
 * Shown at checkout while the built-in test processor takes the card (no Stripe publishable key), as
 * Stripe's own test mode shows one: nobody should believe a test order was really paid for.
 */
export function TestModeBadge() {
  return <p className="test-mode-badge">Test mode — no real payments</p>;
}
