/** Tax rates as the console's form shows them (percent) and as stores keep them (basis points: 825 is 8.25 %). */

const PERCENT = /^\d{1,3}(?:\.\d{1,2})?$/;

/** "8.25" → 825; anything but a percentage from 0 to 100 with at most two decimals → null. */
export function percentToBps(typed: string): number | null {
  const text = typed.trim().replace(/\s*%$/, '');
  if (!PERCENT.test(text)) return null;
  const [whole = '0', fraction = ''] = text.split('.');
  const bps = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return bps <= 10_000 ? bps : null;
}

/** 825 → "8.25", 800 → "8", 850 → "8.5". */
export function bpsToPercent(bps: number): string {
  return String(bps / 100);
}
