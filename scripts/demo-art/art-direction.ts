/**
 * The demo imagery's one art direction: warm paper backdrop, light from the upper left, soft contact
 * shadows, flat colour with one shade tone, a dark ink outline of one weight. Every product drawing and
 * the home page's hero are composed from these pieces, so the catalog looks like one shoot.
 */

export const INK = '#2b2622';
export const PAPER = '#f4efe6';
export const FLOOR = '#e8dfcf';
export const TABLE = '#d8c7ab';
export const STROKE = 7;

/** Colour names the demo catalog's Color option uses, and the drawings' own material colours. */
export const COLOURS: Record<string, string> = {
  Red: '#c4493e',
  Navy: '#2f3e63',
  Forest: '#3f6b4b',
  Charcoal: '#4a4c52',
  Oat: '#dccaa8',
  Rust: '#b3582f',
  Black: '#2f2f33',
  canvas: '#ece3d0',
  steel: '#a9b5bd',
  stoneware: '#e4d8c4',
  glaze: '#7f9c95',
  glass: '#cfe3e6',
  terracotta: '#c8704a',
  leaf: '#5d8a55',
  cork: '#c49a6c',
  felt: '#8d8f93',
  leather: '#8a5331',
  gold: '#d1a85a',
  paper: '#fbf8f2',
  coffee: '#6b4330',
  wax: '#f1e6d2',
  sky: '#8fb3c9',
  plum: '#6f4a6b',
  mustard: '#d6a63c',
  cream: '#f3ead8',
};

/** Mixes two #rrggbb colours: t = 0 gives `a`, 1 gives `b`. */
export function mix(a: string, b: string, t: number): string {
  const parse = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const [x, y] = [parse(a), parse(b)];
  return `#${x
    .map((v, i) =>
      Math.round(v + (y[i]! - v) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

export const shadeOf = (colour: string) => mix(colour, INK, 0.28);
export const lightOf = (colour: string) => mix(colour, '#ffffff', 0.35);

/** A shade tone laid over a shape's side away from the light. */
export const shade = (d: string) => `<path d="${d}" fill="${INK}" fill-opacity=".13" stroke="none"/>`;

/** The ink outline every drawing is wrapped in; details inherit it. */
export const inked = (body: string) =>
  `<g stroke="${INK}" stroke-width="${STROKE}" stroke-linejoin="round" stroke-linecap="round">${body}</g>`;

/** Gradients and the soft-shadow blur every image shares (ids are local to each file). */
export const DEFS = `<defs>
<radialGradient id="glow" cx="0.28" cy="0.22" r="0.9"><stop offset="0" stop-color="#fffaf0"/><stop offset="1" stop-color="${PAPER}"/></radialGradient>
<linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${FLOOR}"/><stop offset="1" stop-color="${mix(FLOOR, INK, 0.08)}"/></linearGradient>
<filter id="soft" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="14"/></filter>
</defs>`;

/** A soft contact shadow on the ground, thrown to the right (light from the upper left). */
export const groundShadow = (cx: number, cy: number, rx: number, ry = 20) =>
  `<ellipse cx="${cx + rx * 0.12}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${INK}" fill-opacity=".22" filter="url(#soft)"/>`;
