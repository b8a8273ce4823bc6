/**
 * Lays drawings.ts out as the catalog's views (front, turned, detail, flat-lay) and as the home page's
 * hero scene, all in the one art direction of art-direction.ts.
 */
import { COLOURS, DEFS, FLOOR, INK, PAPER, TABLE, groundShadow, mix } from './art-direction.ts';
import { drawingFor, type Drawing } from './drawings.ts';

export type View = 'front' | 'turned' | 'detail' | 'flatlay';

/** Which views a product with `count` images gets, in gallery order. */
export function viewsFor(count: number): View[] {
  const orders: Record<number, View[]> = {
    1: ['front'],
    2: ['front', 'flatlay'],
    3: ['front', 'turned', 'detail'],
  };
  const all: View[] = ['front', 'turned', 'detail', 'flatlay'];
  return orders[count] ?? Array.from({ length: count }, (_, i) => all[i % all.length]!);
}

const svg = (width: number, height: number, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
${DEFS}
${body}
</svg>
`;

const studio = (floorY = 600) =>
  `<rect width="800" height="800" fill="url(#glow)"/><rect y="${floorY}" width="800" height="${800 - floorY}" fill="url(#floor)"/>`;

/** A leaf sprig and a coaster: the styled shot's props, never the product. */
const props = `<g stroke="${INK}" stroke-width="5" stroke-linejoin="round">
<path d="M40 760 Q120 660 210 640" fill="none"/>
${[0, 1, 2].map((i) => `<path d="M${80 + i * 45} ${715 - i * 28} q30 -50 70 -40 q-20 45 -70 40 Z" fill="${mix(COLOURS.leaf!, '#ffffff', i * 0.15)}"/>`).join('')}
<circle cx="700" cy="110" r="70" fill="${COLOURS.cork}"/><circle cx="700" cy="110" r="52" fill="none" stroke-opacity=".4"/>
</g>`;

const grain = Array.from(
  { length: 9 },
  (_, i) =>
    `<path d="M0 ${60 + i * 90} Q400 ${40 + i * 90} 800 ${70 + i * 90}" fill="none" stroke="${INK}" stroke-opacity=".06" stroke-width="3"/>`,
).join('');

/** One product view as an 800 × 800 SVG. */
export function productView(productId: string, view: View, colour?: string): string {
  const drawing: Drawing = drawingFor(productId);
  const art = drawing.draw(colour ?? drawing.colour);
  const [fx, fy] = drawing.focus;
  switch (view) {
    case 'front':
      return svg(800, 800, `${studio()}${groundShadow(400, 606, drawing.footprint)}${art}`);
    case 'turned':
      return svg(
        800,
        800,
        `${studio(620)}<path d="M190 620 L190 300 Q190 130 400 130 Q610 130 610 300 L610 620 Z" fill="${mix(PAPER, FLOOR, 0.9)}"/>` +
          `${groundShadow(400, 626, drawing.footprint)}<g transform="translate(800 20) scale(-1 1)">${art}</g>`,
      );
    case 'detail':
      return svg(
        800,
        800,
        `${studio(9999)}<g transform="translate(${400 - fx * 2.2} ${400 - fy * 2.2}) scale(2.2)">${art}</g>`,
      );
    case 'flatlay':
      return svg(
        800,
        800,
        `<rect width="800" height="800" fill="${TABLE}"/>${grain}${props}` +
          `<ellipse cx="430" cy="440" rx="${drawing.footprint + 20}" ry="230" fill="${INK}" fill-opacity=".18" filter="url(#soft)"/>` +
          `<g transform="rotate(-9 400 400) translate(60 40) scale(.85)">${art}</g>`,
      );
  }
}

/** The store front's hero: several of the catalog's products arranged on a table, 1600 × 900. */
export function heroScene(): string {
  const place = (id: string, x: number, ground: number, scale: number, colour?: string) => {
    const drawing = drawingFor(id);
    return (
      groundShadow(x, ground + 6, drawing.footprint * scale, 14) +
      `<g transform="translate(${x - 400 * scale} ${ground - 600 * scale}) scale(${scale})">${drawing.draw(colour ?? drawing.colour)}</g>`
    );
  };
  const c = COLOURS;
  return svg(
    1600,
    900,
    `<rect width="1600" height="900" fill="url(#glow)"/>
<circle cx="1290" cy="200" r="150" fill="${c.mustard}" fill-opacity=".25"/>
<path d="M80 470 L80 180 Q80 60 230 60 Q380 60 380 180 L380 470 Z" fill="${mix(PAPER, FLOOR, 0.9)}"/>
<rect y="600" width="1600" height="300" fill="url(#floor)"/>
<path d="M0 600 L1600 600" stroke="${INK}" stroke-opacity=".15" stroke-width="4"/>
${place('plant-pot', 230, 600, 0.6)}
${place('desk-lamp', 1420, 600, 0.62)}
${place('steel-bottle', 560, 600, 0.55)}
${place('headphones', 1130, 600, 0.5, c.Charcoal)}
${place('canvas-sneaker', 330, 850, 0.5)}
${place('ceramic-mug', 760, 845, 0.46)}
${place('wool-beanie', 1010, 850, 0.5, c.Rust)}
${place('candle', 1290, 850, 0.42)}`,
  );
}
