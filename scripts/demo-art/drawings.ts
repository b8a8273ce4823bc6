/**
 * One drawing per product type of the demo catalog, on an 800 × 800 canvas with the object standing on
 * y = 600 around x = 400 (art-direction.ts). No text anywhere: the pictures show the thing, the page
 * says its name.
 */
import { COLOURS, INK, inked, lightOf, mix, shade, shadeOf } from './art-direction.ts';

const C = COLOURS;

export type Drawing = {
  /** The object in the given colour (the product's Color option, else its own material colour). */
  draw: (colour: string) => string;
  /** Its default colour when the product has no Color option. */
  colour: string;
  /** Half the width of its contact shadow. */
  footprint: number;
  /** The point a detail view zooms into. */
  focus: [number, number];
};

const tee: Drawing = {
  colour: C.Red!,
  footprint: 200,
  focus: [400, 250],
  draw: (c) =>
    inked(`<path d="M300 210 L220 240 L150 330 L215 375 L255 340 L255 590 L545 590 L545 340 L585 375 L650 330 L580 240 L500 210 Q400 270 300 210 Z" fill="${c}"/>
${shade('M470 230 L500 210 L580 240 L650 330 L585 375 L545 340 L545 590 L470 590 Z')}
<path d="M300 210 Q400 290 500 210" fill="none"/>
<path d="M318 214 Q400 262 482 214" fill="none" stroke="${shadeOf(c)}" stroke-width="10"/>
<path d="M255 340 L255 380 M545 340 L545 380" fill="none" stroke-width="4"/>
<path d="M270 565 L530 565" fill="none" stroke="${shadeOf(c)}" stroke-width="5" stroke-dasharray="12 10"/>`),
};

const hoodie: Drawing = {
  colour: C.Forest!,
  footprint: 215,
  focus: [400, 300],
  draw: (c) =>
    inked(`<path d="M300 220 L215 255 L150 520 L210 540 L255 380 L255 600 L545 600 L545 380 L590 540 L650 520 L585 255 L500 220 Z" fill="${c}"/>
<path d="M300 220 Q300 120 400 115 Q500 120 500 220 Q470 300 400 300 Q330 300 300 220 Z" fill="${shadeOf(c)}"/>
<path d="M330 225 Q345 160 400 155 Q455 160 470 225 Q440 270 400 270 Q360 270 330 225 Z" fill="${mix(c, INK, 0.55)}"/>
${shade('M470 250 L585 255 L650 520 L590 540 L545 380 L545 600 L470 600 Z')}
<path d="M375 285 L370 370 M425 285 L430 370" fill="none" stroke-width="5"/>
<circle cx="370" cy="378" r="7" fill="${C.cream}"/><circle cx="430" cy="378" r="7" fill="${C.cream}"/>
<path d="M310 470 L490 470 L515 560 L285 560 Z" fill="${lightOf(c)}" fill-opacity=".35"/>
<path d="M255 585 L545 585 M155 500 L212 518 M645 500 L588 518" fill="none" stroke-width="5"/>`),
};

const sneaker: Drawing = {
  colour: C.canvas!,
  footprint: 250,
  focus: [330, 420],
  draw: (c) =>
    inked(`<path d="M150 520 L160 420 Q190 400 240 395 L330 330 Q370 300 410 330 L470 400 Q560 420 650 460 Q690 480 680 525 Z" fill="${c}"/>
<path d="M140 520 L690 520 Q700 560 660 575 L170 575 Q130 565 140 520 Z" fill="#fbf8f2"/>
<path d="M140 545 L694 545" fill="none" stroke="${C.Red}" stroke-width="8"/>
${shade('M470 400 Q560 420 650 460 Q690 480 680 525 L470 520 Z')}
<path d="M330 330 Q300 420 300 520" fill="none" stroke-width="5"/>
<path d="M345 355 L420 345 M352 385 L440 372 M360 415 L458 398" fill="none" stroke-width="6"/>
${[352, 362, 372].map((y, i) => `<circle cx="${340 + i * 10}" cy="${y + i * 22}" r="6" fill="${C.steel}" stroke-width="4"/>`).join('')}
<path d="M600 520 Q640 500 676 505" fill="none" stroke-width="5"/>`),
};

const beanie: Drawing = {
  colour: C.Oat!,
  footprint: 190,
  focus: [400, 480],
  draw: (c) =>
    inked(`<path d="M230 480 Q220 240 400 220 Q580 240 570 480 Z" fill="${c}"/>
${shade('M440 224 Q580 240 570 480 L470 480 Q500 330 440 224 Z')}
${[290, 340, 390, 440, 490].map((x) => `<path d="M${x} 260 Q${x + 8} 370 ${x + 4} 478" fill="none" stroke="${shadeOf(c)}" stroke-width="5"/>`).join('')}
<rect x="210" y="470" width="380" height="120" rx="26" fill="${shadeOf(c)}"/>
${Array.from({ length: 12 }, (_, i) => `<path d="M${238 + i * 30} 486 L${238 + i * 30} 574" fill="none" stroke="${mix(c, INK, 0.45)}" stroke-width="6"/>`).join('')}
<circle cx="400" cy="200" r="44" fill="${lightOf(c)}"/>`),
};

const bottle: Drawing = {
  colour: C.steel!,
  footprint: 110,
  focus: [400, 230],
  draw: (c) =>
    inked(`<rect x="335" y="120" width="130" height="80" rx="20" fill="${INK}"/>
<path d="M350 200 L450 200 Q455 215 480 240 Q505 265 505 300 L505 560 Q505 600 465 600 L335 600 Q295 600 295 560 L295 300 Q295 265 320 240 Q345 215 350 200 Z" fill="${c}"/>
<path d="M330 300 L330 560" fill="none" stroke="#ffffff" stroke-opacity=".7" stroke-width="14"/>
${shade('M450 200 Q455 215 480 240 Q505 265 505 300 L505 560 Q505 600 465 600 L440 600 L440 200 Z')}
<rect x="295" y="330" width="210" height="120" fill="${C.glaze}" fill-opacity=".85"/>
<path d="M375 120 Q400 80 425 120" fill="none" stroke-width="9"/>`),
};

const mug: Drawing = {
  colour: C.glaze!,
  footprint: 190,
  focus: [520, 420],
  draw: (c) =>
    inked(`<path d="M500 360 Q600 350 600 440 Q600 530 490 520" fill="none" stroke-width="34"/>
<path d="M500 360 Q600 350 600 440 Q600 530 490 520" fill="none" stroke="${c}" stroke-width="20"/>
<path d="M250 300 L510 300 L500 560 Q500 600 460 600 L300 600 Q260 600 260 560 Z" fill="${c}"/>
<path d="M250 300 L510 300 L508 350 Q380 380 252 350 Z" fill="${C.stoneware}"/>
${shade('M430 300 L510 300 L500 560 Q500 600 460 600 L430 600 Z')}
<ellipse cx="380" cy="300" rx="130" ry="22" fill="${C.coffee}"/>
<path d="M340 250 Q320 215 345 185 Q370 155 350 120 M410 255 Q390 215 415 185 Q440 155 420 120" fill="none" stroke="${INK}" stroke-opacity=".35" stroke-width="6"/>`),
};

const pourOver: Drawing = {
  colour: C.glass!,
  footprint: 170,
  focus: [400, 260],
  draw: (c) =>
    inked(`<path d="M300 350 L500 350 Q560 450 520 560 Q505 600 460 600 L340 600 Q295 600 280 560 Q240 450 300 350 Z" fill="${c}" fill-opacity=".9"/>
<path d="M275 520 Q400 540 525 520 L520 560 Q505 600 460 600 L340 600 Q295 600 280 560 Z" fill="${C.coffee}"/>
<rect x="330" y="330" width="140" height="34" rx="10" fill="${C.leather}"/>
<path d="M260 170 L540 170 L440 330 L360 330 Z" fill="${C.stoneware}"/>
${shade('M480 170 L540 170 L440 330 L410 330 Z')}
<path d="M250 170 L550 170" fill="none" stroke-width="12"/>
<path d="M300 190 L380 310 M330 190 L395 300" fill="none" stroke="${C.paper}" stroke-width="6"/>
${shade('M450 350 L500 350 Q560 450 520 560 Q505 600 460 600 L450 600 Z')}`),
};

const coffeeBag: Drawing = {
  colour: C.coffee!,
  footprint: 190,
  focus: [400, 380],
  draw: (c) =>
    inked(`<path d="M270 190 L530 190 L545 590 L255 590 Z" fill="${C.cream}"/>
<path d="M270 190 L530 190 L534 250 L266 250 Z" fill="${mix(C.cream!, INK, 0.12)}"/>
<path d="M270 215 L530 215" fill="none" stroke-width="5" stroke-dasharray="4 14"/>
${shade('M470 190 L530 190 L545 590 L480 590 Z')}
<rect x="300" y="320" width="200" height="200" rx="100" fill="${C.mustard}"/>
<ellipse cx="400" cy="420" rx="48" ry="70" fill="${c}" transform="rotate(-20 400 420)"/>
<path d="M384 360 Q420 420 400 480" fill="none" stroke="${C.cream}" stroke-width="6" transform="rotate(-20 400 420)"/>
${[
  [200, 580],
  [600, 585],
  [630, 560],
]
  .map(([x, y]) => `<ellipse cx="${x}" cy="${y}" rx="22" ry="30" fill="${c}" transform="rotate(40 ${x} ${y})"/>`)
  .join('')}`),
};

const notebook: Drawing = {
  colour: C.Navy!,
  footprint: 190,
  focus: [520, 300],
  draw: (c) =>
    inked(`<rect x="250" y="160" width="300" height="430" rx="18" fill="${C.paper}"/>
<rect x="240" y="150" width="300" height="430" rx="18" fill="${c}"/>
${shade('M470 150 L522 150 Q540 150 540 168 L540 562 Q540 580 522 580 L470 580 Z')}
<path d="M500 150 L500 580" fill="none" stroke="${C.Black}" stroke-width="14"/>
<path d="M540 320 L575 320 L575 350 L540 350" fill="${C.leather}"/>
<rect x="300" y="230" width="140" height="90" rx="8" fill="${lightOf(c)}" fill-opacity=".35" stroke-width="4"/>`),
};

const pens: Drawing = {
  colour: C.Black!,
  footprint: 230,
  focus: [400, 300],
  draw: () =>
    inked(
      [C.Red, C.Navy, C.Forest, C.mustard, C.plum, C.Black]
        .map(
          (colour, i) => `<g transform="translate(${230 + i * 62} 0) rotate(${-8 + i * 3} 0 400)">
<rect x="-16" y="180" width="32" height="360" rx="14" fill="${C.paper}"/>
<rect x="-18" y="170" width="36" height="140" rx="16" fill="${colour}"/>
<path d="M18 190 L30 195 L30 290 L18 296" fill="${colour}" stroke-width="5"/>
<path d="M-16 540 L0 590 L16 540 Z" fill="${colour}"/></g>`,
        )
        .join(''),
    ),
};

const lamp: Drawing = {
  colour: C.mustard!,
  footprint: 170,
  focus: [470, 220],
  draw: (c) =>
    inked(`<ellipse cx="330" cy="585" rx="120" ry="26" fill="${C.Black}"/>
<path d="M330 575 L280 360 L470 220" fill="none" stroke-width="22"/>
<path d="M330 575 L280 360 L470 220" fill="none" stroke="${C.steel}" stroke-width="10"/>
<circle cx="280" cy="360" r="18" fill="${C.Black}"/>
<path d="M440 180 L560 140 L640 290 L520 330 Z" fill="${c}"/>
${shade('M600 215 L640 290 L520 330 L560 260 Z')}
<ellipse cx="580" cy="310" rx="64" ry="16" fill="#fff6cf" transform="rotate(-18 580 310)"/>
<path d="M560 360 L600 440 M610 340 L680 400 M520 370 L530 460" fill="none" stroke="${C.mustard}" stroke-opacity=".6" stroke-width="6"/>`),
};

const sleeve: Drawing = {
  colour: C.felt!,
  footprint: 250,
  focus: [400, 270],
  draw: (c) =>
    inked(`<rect x="150" y="230" width="500" height="350" rx="30" fill="${c}"/>
${shade('M540 230 L620 230 Q650 230 650 260 L650 550 Q650 580 620 580 L540 580 Z')}
<path d="M175 260 L625 260" fill="none" stroke="${lightOf(c)}" stroke-width="5" stroke-dasharray="14 10"/>
<path d="M360 200 L440 200 L440 320 Q400 350 360 320 Z" fill="${C.leather}"/>
<circle cx="400" cy="300" r="8" fill="${C.gold}" stroke-width="4"/>`),
};

const tote: Drawing = {
  colour: C.canvas!,
  footprint: 200,
  focus: [400, 240],
  draw: (c) =>
    inked(`<path d="M310 300 Q310 140 400 140 Q490 140 490 300" fill="none" stroke-width="30"/>
<path d="M310 300 Q310 140 400 140 Q490 140 490 300" fill="none" stroke="${C.Navy}" stroke-width="16"/>
<path d="M230 290 L570 290 L600 600 L200 600 Z" fill="${c}"/>
${shade('M480 290 L570 290 L600 600 L500 600 Z')}
<path d="M235 330 L565 330" fill="none" stroke-width="4" stroke-dasharray="10 10"/>
<path d="M330 420 Q400 380 470 420 Q400 520 330 420 Z" fill="${C.leaf}"/>
<path d="M340 420 L460 420" fill="none" stroke-width="4"/>`),
};

const pitcher: Drawing = {
  colour: C.glass!,
  footprint: 170,
  focus: [400, 220],
  draw: (c) =>
    inked(`<path d="M490 250 Q600 260 590 380 Q580 480 500 500" fill="none" stroke-width="34"/>
<path d="M490 250 Q600 260 590 380 Q580 480 500 500" fill="none" stroke="${C.Navy}" stroke-width="20"/>
<path d="M280 190 L500 190 L510 570 Q510 600 480 600 L310 600 Q280 600 280 570 Z" fill="${c}" fill-opacity=".85"/>
<path d="M282 300 L508 300 L510 570 Q510 600 480 600 L310 600 Q280 600 280 570 Z" fill="${C.sky}" fill-opacity=".55"/>
<path d="M280 190 L230 170 L300 150 L500 150 L500 190 Z" fill="${C.Navy}"/>
<rect x="330" y="210" width="120" height="170" rx="20" fill="#ffffff" fill-opacity=".7"/>
${shade('M450 190 L500 190 L510 570 Q510 600 480 600 L450 600 Z')}`),
};

const yogaMat: Drawing = {
  colour: C.cork!,
  footprint: 240,
  focus: [560, 390],
  draw: (c) =>
    inked(`<path d="M200 300 L560 300 L560 500 L200 500 Z" fill="${c}"/>
<ellipse cx="200" cy="400" rx="50" ry="100" fill="${shadeOf(c)}"/>
<ellipse cx="560" cy="400" rx="50" ry="100" fill="${c}"/>
<path d="M560 400 m-10 0 a10 12 0 1 1 20 0 a22 28 0 1 1 -44 0 a34 46 0 1 1 68 0 a44 70 0 1 1 -88 0" fill="none" stroke-width="5"/>
${shade('M200 440 L560 440 L560 500 L200 500 Z')}
<path d="M280 295 L280 505 M460 295 L460 505" fill="none" stroke="${C.Forest}" stroke-width="16"/>
<path d="M200 500 L560 500 L600 600 L240 600 Z" fill="${C.Forest}" fill-opacity="0" stroke="none"/>`),
};

const jumpRope: Drawing = {
  colour: C.Red!,
  footprint: 240,
  focus: [260, 300],
  draw: (c) =>
    inked(`<path d="M260 380 Q300 620 420 560 Q560 480 540 380" fill="none" stroke="${INK}" stroke-width="8"/>
<path d="M260 380 Q300 620 420 560 Q560 480 540 380" fill="none" stroke="${C.steel}" stroke-width="3"/>
<rect x="230" y="180" width="60" height="200" rx="28" fill="${c}" transform="rotate(-12 260 280)"/>
<rect x="510" y="180" width="60" height="200" rx="28" fill="${c}" transform="rotate(14 540 280)"/>
<path d="M246 210 L280 204 M550 208 L584 214" fill="none" stroke="${lightOf(c)}" stroke-width="6"/>`),
};

const candle: Drawing = {
  colour: C.glaze!,
  footprint: 170,
  focus: [400, 300],
  draw: (c) =>
    inked(`<path d="M280 300 L520 300 L520 570 Q520 600 490 600 L310 600 Q280 600 280 570 Z" fill="${c}" fill-opacity=".9"/>
<ellipse cx="400" cy="300" rx="120" ry="24" fill="${C.wax}"/>
${shade('M450 300 L520 300 L520 570 Q520 600 490 600 L450 600 Z')}
<rect x="320" y="380" width="160" height="120" rx="10" fill="${C.cream}" stroke-width="4"/>
<path d="M360 440 Q400 400 440 440 Q400 480 360 440 Z" fill="${C.leaf}" stroke-width="4"/>
<path d="M400 300 L400 270" fill="none" stroke-width="5"/>
<path d="M400 190 Q430 235 400 268 Q370 235 400 190 Z" fill="${C.mustard}"/>
<path d="M400 225 Q412 245 400 260 Q388 245 400 225 Z" fill="#fff6cf" stroke="none"/>`),
};

const blanket: Drawing = {
  colour: C.cream!,
  footprint: 240,
  focus: [400, 360],
  draw: (c) =>
    inked(
      [0, 1, 2]
        .map((i) => {
          const y = 470 - i * 90;
          const tone = [c, mix(c, C.Rust!, 0.35), c][i]!;
          return `<rect x="${180 + i * 8}" y="${y}" width="${440 - i * 16}" height="110" rx="36" fill="${tone}"/>
${Array.from({ length: 7 }, (_, k) => `<path d="M${230 + k * 56 + i * 8} ${y + 14} L${230 + k * 56 + i * 8} ${y + 96}" fill="none" stroke="${shadeOf(tone)}" stroke-width="4"/>`).join('')}
<path d="M${200 + i * 8} ${y + 55} L${600 - i * 8} ${y + 55}" fill="none" stroke="${shadeOf(tone)}" stroke-width="4"/>`;
        })
        .join('') + `<path d="M620 500 l20 10 M620 530 l22 6 M620 560 l20 4" fill="none" stroke-width="5"/>`,
    ),
};

const plantPot: Drawing = {
  colour: C.terracotta!,
  footprint: 180,
  focus: [400, 280],
  draw: (c) =>
    inked(`<path d="M400 400 Q300 300 250 180 Q350 200 400 400 Z" fill="${C.leaf}"/>
<path d="M400 400 Q520 320 560 210 Q450 230 400 400 Z" fill="${mix(C.leaf!, INK, 0.15)}"/>
<path d="M400 400 Q390 250 420 140 Q470 260 400 400 Z" fill="${lightOf(C.leaf!)}"/>
<ellipse cx="400" cy="585" rx="170" ry="22" fill="${shadeOf(c)}"/>
<path d="M270 400 L530 400 L500 575 L300 575 Z" fill="${c}"/>
<rect x="255" y="380" width="290" height="55" rx="10" fill="${lightOf(c)}"/>
${shade('M460 435 L530 435 L500 575 L450 575 Z')}`),
};

const gloves: Drawing = {
  colour: C.mustard!,
  footprint: 230,
  focus: [300, 250],
  draw: (c) => {
    const glove = (x: number, flip: number, tone: string) => `<g transform="translate(${x} 0) scale(${flip} 1)">
<path d="M-80 560 L-85 330 Q-90 300 -70 300 Q-50 300 -50 330 L-50 250 Q-50 225 -28 225 Q-8 225 -8 250 L-8 235 Q-8 210 14 210 Q36 210 36 235 L36 255 Q36 232 58 232 Q80 232 80 258 L80 420 L110 370 Q130 345 150 362 Q165 378 150 400 L90 530 L90 560 Z" fill="${tone}"/>
<rect x="-90" y="540" width="190" height="60" rx="12" fill="${C.Forest}"/>
<path d="M-50 330 L-50 420 M-8 250 L-8 420 M36 255 L36 420" fill="none" stroke-width="4"/></g>`;
    return inked(glove(300, 1, c) + glove(520, -1, shadeOf(c)));
  },
};

const headphones: Drawing = {
  colour: C.Charcoal!,
  footprint: 220,
  focus: [250, 420],
  draw: (c) =>
    inked(`<path d="M230 430 Q220 170 400 160 Q580 170 570 430" fill="none" stroke-width="40"/>
<path d="M230 430 Q220 170 400 160 Q580 170 570 430" fill="none" stroke="${c}" stroke-width="26"/>
<path d="M300 190 Q400 150 500 190" fill="none" stroke="${C.leather}" stroke-width="16"/>
<rect x="180" y="380" width="110" height="190" rx="50" fill="${c}"/>
<rect x="510" y="380" width="110" height="190" rx="50" fill="${c}"/>
<rect x="270" y="400" width="40" height="150" rx="18" fill="${C.Black}"/>
<rect x="490" y="400" width="40" height="150" rx="18" fill="${C.Black}"/>
${shade('M580 380 Q620 380 620 430 L620 520 Q620 570 580 570 Z')}
<circle cx="235" cy="475" r="22" fill="${lightOf(c)}" stroke-width="4"/>`),
};

const phoneStand: Drawing = {
  colour: C.steel!,
  footprint: 180,
  focus: [420, 260],
  draw: (c) =>
    inked(`<path d="M240 590 L560 590 L560 560 L380 560 L470 250 L440 240 L330 560 L240 560 Z" fill="${c}"/>
<rect x="300" y="140" width="190" height="360" rx="26" fill="${C.Black}" transform="rotate(16 395 320)"/>
<rect x="318" y="165" width="154" height="300" rx="12" fill="${C.sky}" stroke-width="4" transform="rotate(16 395 320)"/>
<path d="M340 230 L450 230 M340 270 L420 270" fill="none" stroke="#ffffff" stroke-opacity=".7" stroke-width="10" transform="rotate(16 395 320)"/>
${shade('M440 560 L560 560 L560 590 L440 590 Z')}`),
};

const sunglasses: Drawing = {
  colour: C.Black!,
  footprint: 240,
  focus: [400, 380],
  draw: (c) =>
    inked(`<path d="M180 340 L130 320 M620 340 L670 320" fill="none" stroke-width="14"/>
<path d="M170 340 L370 340 Q380 470 280 470 Q180 470 170 340 Z" fill="${C.coffee}"/>
<path d="M430 340 L630 340 Q620 470 520 470 Q420 470 430 340 Z" fill="${C.coffee}"/>
<path d="M170 330 L630 330 L630 355 L170 355 Z" fill="${c}"/>
<path d="M370 350 Q400 320 430 350" fill="none" stroke-width="14"/>
<path d="M210 370 L250 410 M470 370 L510 410" fill="none" stroke="#ffffff" stroke-opacity=".6" stroke-width="10"/>`),
};

const umbrella: Drawing = {
  colour: C.Navy!,
  footprint: 240,
  focus: [400, 240],
  draw: (c) =>
    inked(`<path d="M400 300 L400 540 Q400 590 450 590 Q490 590 490 550" fill="none" stroke="${C.leather}" stroke-width="16"/>
<path d="M160 320 Q170 150 400 140 Q630 150 640 320 Q600 290 560 320 Q520 290 480 320 Q440 290 400 320 Q360 290 320 320 Q280 290 240 320 Q200 290 160 320 Z" fill="${c}"/>
<path d="M400 140 Q330 200 320 320 M400 140 Q470 200 480 320" fill="none" stroke-width="4"/>
${shade('M400 140 Q630 150 640 320 Q600 290 560 320 Q520 290 480 320 Q470 200 400 140 Z')}
<path d="M400 140 L400 110" fill="none" stroke-width="10"/>`),
};

const artPrint: Drawing = {
  colour: C.plum!,
  footprint: 200,
  focus: [400, 340],
  draw: (c) =>
    inked(`<rect x="230" y="150" width="340" height="440" fill="${C.coffee}"/>
<rect x="260" y="180" width="280" height="380" fill="${C.paper}" stroke-width="4"/>
<rect x="290" y="210" width="220" height="290" fill="${mix(C.sky!, '#ffffff', 0.4)}" stroke="none"/>
<circle cx="450" cy="280" r="40" fill="${C.mustard}" stroke="none"/>
<path d="M290 500 L360 360 L420 440 L460 390 L510 500 Z" fill="${c}" stroke="none"/>
<path d="M290 500 L340 420 L380 470 Z" fill="${C.Forest}" stroke="none"/>
<path d="M470 530 L500 530" fill="none" stroke-width="4"/>`),
};

const watch: Drawing = {
  colour: C.gold!,
  footprint: 160,
  focus: [400, 390],
  draw: (c) =>
    inked(`<rect x="345" y="110" width="110" height="200" rx="20" fill="${C.Black}"/>
<rect x="345" y="470" width="110" height="130" rx="20" fill="${C.Black}"/>
<circle cx="400" cy="390" r="130" fill="${c}"/>
<circle cx="400" cy="390" r="105" fill="${C.Navy}"/>
<rect x="525" y="370" width="30" height="40" rx="6" fill="${c}"/>
<circle cx="360" cy="400" r="26" fill="${mix(C.Navy!, '#ffffff', 0.2)}" stroke-width="4"/>
<circle cx="440" cy="400" r="26" fill="${mix(C.Navy!, '#ffffff', 0.2)}" stroke-width="4"/>
${Array.from({ length: 12 }, (_, i) => {
  const a = (i * Math.PI) / 6;
  return `<path d="M${400 + 88 * Math.sin(a)} ${390 - 88 * Math.cos(a)} L${400 + 98 * Math.sin(a)} ${390 - 98 * Math.cos(a)}" fill="none" stroke="${C.cream}" stroke-width="5"/>`;
}).join('')}
<path d="M400 390 L400 315 M400 390 L455 360" fill="none" stroke="${C.cream}" stroke-width="7"/>
<circle cx="400" cy="390" r="8" fill="${c}" stroke-width="3"/>`),
};

const wallet: Drawing = {
  colour: C.leather!,
  footprint: 220,
  focus: [330, 300],
  draw: (c) =>
    inked(`<rect x="230" y="230" width="160" height="100" rx="10" fill="${C.sky}" transform="rotate(-8 310 280)"/>
<rect x="270" y="220" width="160" height="100" rx="10" fill="${C.mustard}" transform="rotate(-3 350 270)"/>
<rect x="190" y="280" width="420" height="300" rx="26" fill="${c}"/>
${shade('M520 280 L584 280 Q610 280 610 306 L610 554 Q610 580 584 580 L520 580 Z')}
<rect x="210" y="300" width="380" height="260" rx="18" fill="none" stroke="${C.cream}" stroke-width="4" stroke-dasharray="10 9"/>
<path d="M400 282 L400 578" fill="none" stroke="${shadeOf(c)}" stroke-width="6"/>`),
};

const scarf: Drawing = {
  colour: C.Rust!,
  footprint: 230,
  focus: [400, 300],
  draw: (c) =>
    inked(`<path d="M220 200 Q400 150 580 200 L560 330 Q400 290 240 330 Z" fill="${c}"/>
<path d="M300 300 L360 600 L460 600 L500 300 Z" fill="${shadeOf(c)}"/>
<path d="M240 330 Q400 290 560 330 L520 420 Q400 380 280 420 Z" fill="${c}"/>
${[330, 390, 450].map((x) => `<path d="M${x} 170 L${x - 10} 420" fill="none" stroke="${C.cream}" stroke-width="5"/>`).join('')}
<path d="M250 240 Q400 200 550 240 M265 380 Q400 340 535 380" fill="none" stroke="${C.cream}" stroke-width="5"/>
${Array.from({ length: 6 }, (_, i) => `<path d="M${370 + i * 16} 600 L${368 + i * 16} 630" fill="none" stroke-width="5"/>`).join('')}`),
};

/** A parcel: what a product the demo has no drawing for shows, still without text. */
const parcel: Drawing = {
  colour: C.cork!,
  footprint: 200,
  focus: [400, 300],
  draw: (c) =>
    inked(`<path d="M220 300 L400 230 L580 300 L580 540 L400 610 L220 540 Z" fill="${c}"/>
<path d="M220 300 L400 370 L580 300 M400 370 L400 610" fill="none"/>
${shade('M400 370 L580 300 L580 540 L400 610 Z')}
<path d="M310 265 L490 335 L490 400" fill="none" stroke="${C.cream}" stroke-width="14"/>`),
};

/** Demo product id → its drawing (ids of demo-data.ts). */
export const DRAWINGS: Record<string, Drawing> = {
  'classic-tee': tee,
  'trail-hoodie': hoodie,
  'canvas-sneaker': sneaker,
  'wool-beanie': beanie,
  'steel-bottle': bottle,
  'ceramic-mug': mug,
  'pour-over': pourOver,
  'coffee-beans': coffeeBag,
  notebook,
  'gel-pens': pens,
  'desk-lamp': lamp,
  'laptop-sleeve': sleeve,
  'tote-bag': tote,
  'water-filter': pitcher,
  'yoga-mat': yogaMat,
  'jump-rope': jumpRope,
  candle,
  'throw-blanket': blanket,
  'plant-pot': plantPot,
  'garden-gloves': gloves,
  headphones,
  'phone-stand': phoneStand,
  sunglasses,
  umbrella,
  'limited-print': artPrint,
  'vip-reserve-watch': watch,
  'vip-reserve-wallet': wallet,
  'vip-reserve-scarf': scarf,
};

export const drawingFor = (productId: string): Drawing => DRAWINGS[productId] ?? parcel;
