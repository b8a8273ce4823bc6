import type { CatalogInput } from '../catalog/catalog-format.ts';
import { mediaUrl } from '../media/media-folder.ts';

/**
 * The demo stores the README lists: `acme` (public, custom domain shop.acme.test) and `vip` (restricted).
 * Image files are generated from this list by scripts/generate-demo-images.ts: the public store's into
 * public/images/demo/, the restricted store's into its media folder (media/vip/), which only shoppers
 * with access are served (docs/decisions/120-restricted-store-media.md).
 */

export const VIP_RECIPIENT = { email: 'guest@example.com', uuid: '8f14e45f-ea1c-4b4e-9d6a-000000000001' } as const;
export const VIP_DOMAIN_TOKEN = 'vip-domain-token';

type ProductInput = NonNullable<CatalogInput['products']>[number];

/** Where a demo image file is served: a public static file, or a store's own media. */
type ImageUrl = (file: string) => string;
const publicImage: ImageUrl = (file) => `/images/demo/${file}`;
const vipMedia: ImageUrl = (file) => mediaUrl('vip', file);

const img = (id: string, count: number, name: string, url: ImageUrl) =>
  Array.from({ length: count }, (_, i) => ({
    url: url(`${id}-${i + 1}.svg`),
    alt: count > 1 ? `${name}, view ${i + 1}` : name,
  }));

/**
 * `views` images per colour, each showing that colour's variants (docs/decisions/193-variant-images.md):
 * numbered on from 1, the first colour's first, so choosing a colour leads the gallery with its own.
 */
const colourImg = (id: string, name: string, colours: string[], views: number, skus: (colour: string) => string[]) =>
  colours.flatMap((colour, c) =>
    Array.from({ length: views }, (_, i) => ({
      url: publicImage(`${id}-${c * views + i + 1}.svg`),
      alt: `${name} in ${colour}, view ${i + 1}`,
      variant_skus: skus(colour),
    })),
  );

const desc = (lead: string, points: string[]) =>
  `<p>${lead}</p><ul>${points.map((p) => `<li>${p}</li>`).join('')}</ul>`;

/** A product with one variant. */
function simple(
  id: string,
  name: string,
  price: string,
  options: { images?: number; imageUrl?: ImageUrl; stock?: number; featured?: boolean; lead: string; points: string[] },
): ProductInput {
  return {
    id,
    name,
    description_html: desc(options.lead, options.points),
    featured: options.featured ?? false,
    images: img(id, options.images ?? 1, name, options.imageUrl ?? publicImage),
    variants: [{ sku: id.toUpperCase(), name: 'Default', price, stock: options.stock ?? 100 }],
  };
}

const SIZES = ['S', 'M', 'L', 'XL'];
const TEE_COLOURS = ['Red', 'Navy'];
const HOODIE_COLOURS = ['Forest', 'Charcoal'];

const acmeProducts: ProductInput[] = [
  {
    id: 'classic-tee',
    name: 'Classic Cotton Tee',
    featured: true,
    description_html: desc('A heavyweight <strong>100% cotton</strong> tee that keeps its shape wash after wash.', [
      'Pre-shrunk',
      'Ribbed collar',
      'Made to last',
    ]),
    option_names: ['Size', 'Color'],
    images: colourImg('classic-tee', 'Classic Cotton Tee', TEE_COLOURS, 4, (colour) =>
      SIZES.map((size) => `TEE-${size}-${colour.toUpperCase()}`),
    ),
    variants: SIZES.flatMap((size) =>
      TEE_COLOURS.map((color) => ({
        sku: `TEE-${size}-${color.toUpperCase()}`,
        name: `${size} / ${color}`,
        options: { Size: size, Color: color },
        price: size === 'XL' ? '22.00' : '20.00',
        stock: size === 'S' && color === 'Red' ? 0 : 40,
      })),
    ),
  },
  {
    id: 'trail-hoodie',
    name: 'Trail Hoodie',
    featured: true,
    description_html: desc('A brushed fleece hoodie for cold mornings on the trail.', [
      'Kangaroo pocket',
      'Lined hood',
      'Recycled polyester blend',
    ]),
    option_names: ['Size', 'Color'],
    images: colourImg('trail-hoodie', 'Trail Hoodie', HOODIE_COLOURS, 3, (colour) =>
      SIZES.map((size) => `HOODIE-${size}-${colour.toUpperCase()}`),
    ),
    variants: SIZES.flatMap((size) =>
      HOODIE_COLOURS.map((color) => ({
        sku: `HOODIE-${size}-${color.toUpperCase()}`,
        name: `${size} / ${color}`,
        options: { Size: size, Color: color },
        price: '54.00',
        stock: 25,
      })),
    ),
  },
  {
    id: 'canvas-sneaker',
    name: 'Canvas Sneaker',
    description_html: desc('Everyday canvas sneakers with a vulcanised sole.', ['Cushioned insole', 'Metal eyelets']),
    option_names: ['Size'],
    images: img('canvas-sneaker', 3, 'Canvas Sneaker', publicImage),
    variants: ['7', '8', '9', '10', '11'].map((size) => ({
      sku: `SNEAKER-${size}`,
      name: `US ${size}`,
      options: { Size: size },
      price: '64.50',
      stock: 12,
    })),
  },
  {
    id: 'wool-beanie',
    name: 'Merino Wool Beanie',
    description_html: desc('Soft merino that breathes when you move and warms when you stop.', [
      'One size',
      'Itch-free',
    ]),
    option_names: ['Color'],
    images: img('wool-beanie', 2, 'Merino Wool Beanie', publicImage),
    variants: ['Oat', 'Rust', 'Black'].map((color) => ({
      sku: `BEANIE-${color.toUpperCase()}`,
      name: color,
      options: { Color: color },
      price: '28.00',
      stock: 30,
    })),
  },
  simple('steel-bottle', 'Insulated Steel Bottle', '32.00', {
    images: 3,
    featured: true,
    lead: 'Keeps drinks cold for 24 hours and hot for 12.',
    points: ['750 ml', 'Leak-proof lid', 'Dishwasher safe'],
  }),
  simple('ceramic-mug', 'Stoneware Mug', '18.00', {
    images: 2,
    lead: 'A hand-glazed mug with a generous handle.',
    points: ['350 ml', 'Microwave safe'],
  }),
  simple('pour-over', 'Pour-Over Coffee Set', '46.00', {
    images: 3,
    lead: 'Dripper, carafe and filters: everything for a slow morning cup.',
    points: ['Borosilicate glass', '40 filters included'],
  }),
  simple('coffee-beans', 'Single-Origin Coffee Beans', '16.50', {
    featured: true,
    lead: 'Medium roast from a single farm in Huila, Colombia.',
    points: ['340 g', 'Notes of cocoa and red apple'],
  }),
  simple('notebook', 'Dot Grid Notebook', '14.00', {
    images: 2,
    lead: 'Lay-flat binding and 120 g paper that takes fountain pens.',
    points: ['A5', '192 pages'],
  }),
  simple('gel-pens', 'Gel Pen Set', '9.50', {
    lead: 'Smooth 0.5 mm gel pens in six colours.',
    points: ['Quick-drying', 'Refillable'],
  }),
  simple('desk-lamp', 'Task Desk Lamp', '79.00', {
    images: 3,
    lead: 'A dimmable LED lamp with an adjustable arm.',
    points: ['3 colour temperatures', 'USB-C charging port'],
  }),
  simple('laptop-sleeve', 'Felt Laptop Sleeve', '38.00', {
    lead: 'Wool felt sleeve with a leather tab.',
    points: ['Fits 14-inch laptops', 'Magnetic closure'],
  }),
  simple('tote-bag', 'Canvas Tote Bag', '24.00', {
    images: 2,
    lead: 'A sturdy tote for groceries, books and everything else.',
    points: ['12 oz canvas', 'Inside pocket'],
  }),
  simple('water-filter', 'Water Filter Pitcher', '42.00', {
    lead: 'Filters chlorine and improves taste.',
    points: ['2.4 litres', 'Filter lasts 2 months'],
  }),
  simple('yoga-mat', 'Cork Yoga Mat', '68.00', {
    images: 3,
    lead: 'Natural cork top with a rubber base for grip.',
    points: ['4 mm thick', 'Antimicrobial'],
  }),
  simple('jump-rope', 'Speed Jump Rope', '15.00', {
    lead: 'Ball-bearing handles and an adjustable cable.',
    points: ['Fits all heights'],
  }),
  simple('candle', 'Cedar Soy Candle', '22.00', {
    lead: 'Hand-poured soy wax with cedar and vetiver.',
    points: ['45-hour burn', 'Cotton wick'],
  }),
  simple('throw-blanket', 'Waffle Throw Blanket', '59.00', {
    images: 2,
    lead: 'A light cotton throw for the sofa.',
    points: ['130 × 170 cm', 'Machine washable'],
  }),
  simple('plant-pot', 'Terracotta Plant Pot', '19.00', {
    lead: 'Unglazed terracotta with a drainage saucer.',
    points: ['15 cm diameter'],
  }),
  simple('garden-gloves', 'Garden Gloves', '12.00', {
    lead: 'Breathable gloves with nitrile-coated palms.',
    points: ['Touchscreen fingertips'],
  }),
  simple('headphones', 'Wireless Headphones', '129.00', {
    images: 3,
    featured: true,
    lead: 'Over-ear headphones with 30 hours of battery.',
    points: ['Bluetooth 5.3', 'Foldable'],
  }),
  simple('phone-stand', 'Aluminium Phone Stand', '21.00', {
    lead: 'A weighted stand that holds a phone at a readable angle.',
    points: ['Non-slip base'],
  }),
  simple('sunglasses', 'Polarised Sunglasses', '49.00', {
    images: 2,
    lead: 'Polarised lenses in a recycled acetate frame.',
    points: ['UV400', 'Case included'],
    stock: 3,
  }),
  simple('umbrella', 'Compact Umbrella', '26.00', {
    lead: 'Opens and closes with one button.',
    points: ['Wind-resistant frame'],
  }),
  simple('sticker-pack', 'Sticker Pack', '6.00', {
    images: 0,
    lead: 'Twelve weatherproof vinyl stickers.',
    points: ['Assorted designs'],
  }),
  simple('limited-print', 'Limited Art Print', '85.00', {
    lead: 'A numbered giclée print, signed by the artist.',
    points: ['A3', 'Edition of 50'],
    stock: 0,
  }),
];

const vipProducts: ProductInput[] = [
  simple('vip-reserve-watch', 'VIP Reserve Chronograph', '450.00', {
    images: 3,
    imageUrl: vipMedia,
    featured: true,
    lead: 'A members-only automatic chronograph.',
    points: ['Sapphire crystal', '5-year warranty'],
    stock: 5,
  }),
  simple('vip-reserve-wallet', 'VIP Reserve Leather Wallet', '120.00', {
    images: 2,
    imageUrl: vipMedia,
    lead: 'Full-grain leather, hand-stitched.',
    points: ['6 card slots'],
    stock: 10,
  }),
  simple('vip-reserve-scarf', 'VIP Reserve Cashmere Scarf', '210.00', {
    imageUrl: vipMedia,
    lead: 'Two-ply cashmere woven in Scotland.',
    points: ['180 × 30 cm'],
    stock: 8,
  }),
];

export const demoCatalogs: CatalogInput[] = [
  {
    store: {
      slug: 'acme',
      title: 'Acme Supply Co.',
      description: 'Well-made everyday goods, shipped fast.',
      favicon_url: publicImage('acme-favicon.svg'),
      hero_image_url: publicImage('acme-hero.svg'),
      custom_domain: 'shop.acme.test',
      restricted: false,
      // Tax is collected where the shop has a presence; other destinations pay none.
      tax_rate_bps: 0,
      tax_rates: [
        { country: 'US', rate_bps: 825 },
        { country: 'US', region: 'CA', rate_bps: 725 },
        { country: 'US', region: 'NY', rate_bps: 888 },
        { country: 'US', region: 'TX', rate_bps: 625 },
        { country: 'US', region: 'OR', rate_bps: 0 },
        { country: 'CA', rate_bps: 500 },
        { country: 'CA', region: 'ON', rate_bps: 1300 },
        { country: 'CA', region: 'QC', rate_bps: 1498 },
        { country: 'CA', region: 'BC', rate_bps: 1200 },
        { country: 'GB', rate_bps: 2000 },
      ],
      // The store's own rate and threshold are the home market's: the cart's free-shipping hint before an address.
      shipping_flat: '5.99',
      free_shipping_threshold: '75.00',
      shipping_zones: [
        { name: 'United States', countries: ['US'], rate: '5.99', free_shipping_threshold: '75.00' },
        { name: 'Canada', countries: ['CA'], rate: '12.00', free_shipping_threshold: '150.00' },
        { name: 'United Kingdom', countries: ['GB'], rate: '15.00', free_shipping_threshold: '200.00' },
        { name: 'Europe', countries: ['DE', 'FR', 'IE', 'NL', 'ES', 'IT'], rate: '18.00' },
        { name: 'Rest of the world', countries: ['*'], rate: '25.00' },
      ],
      low_stock_threshold: 5,
      contact_email: 'help@acme.test',
      policies: {
        shipping:
          '<p>Orders ship within two business days from our warehouse in Springfield, Illinois.</p>' +
          '<ul><li>United States: $5.99, free from $75.00, 3–5 business days.</li>' +
          '<li>Canada: $12.00, free from $150.00, 5–8 business days.</li>' +
          '<li>United Kingdom: $15.00, free from $200.00, 5–10 business days.</li>' +
          '<li>Europe: $18.00; rest of the world: $25.00, 7–15 business days.</li></ul>' +
          '<p>Tax is worked out from your shipping address at checkout. International orders may owe import duties on arrival.</p>',
        returns:
          '<p>Changed your mind? Return anything unused within 30 days of delivery for a full refund to your card or gift card.</p>' +
          '<p>Write to <a href="mailto:help@acme.test">help@acme.test</a> with your order number and we will send a prepaid label (United States) or the return address.</p>' +
          '<p>Refunds are made within five business days of the return reaching us.</p>',
        privacy:
          '<p>We collect what an order needs: your name, email address, shipping address and phone number. Card details go straight to our payment provider and never reach our servers.</p>' +
          '<p>We use your email address for order receipts and updates only. We do not sell or share your data. Ask us at <a href="mailto:help@acme.test">help@acme.test</a> to see or delete what we hold.</p>',
        terms:
          '<p>Prices are in US dollars and include no tax until your shipping address is known. An order is accepted when we send its confirmation.</p>' +
          '<p>Gift cards do not expire unless stated, cannot be exchanged for cash and are applied in the order you add them.</p>',
      },
    },
    products: acmeProducts,
    bundles: [
      {
        id: 'coffee-kit',
        name: 'Morning Coffee Kit',
        featured: true,
        description_html: desc('Everything for a slow morning: beans, a pour-over set and two mugs.', [
          'Saves you a trip',
        ]),
        items: [
          { product: 'pour-over', sku: 'POUR-OVER', quantity: 1 },
          { product: 'coffee-beans', sku: 'COFFEE-BEANS', quantity: 1 },
          { product: 'ceramic-mug', sku: 'CERAMIC-MUG', quantity: 2 },
        ],
      },
      {
        id: 'desk-setup',
        name: 'Desk Setup Bundle',
        description_html: desc('A lamp, a notebook and pens for a tidy desk.', ['Great for new starters']),
        items: [
          { product: 'desk-lamp', sku: 'DESK-LAMP', quantity: 1 },
          { product: 'notebook', sku: 'NOTEBOOK', quantity: 1 },
          { product: 'gel-pens', sku: 'GEL-PENS', quantity: 1 },
        ],
      },
      {
        id: 'weekend-pack',
        name: 'Weekend Outdoors Pack',
        featured: true,
        description_html: desc('A tee, a hoodie and a bottle for the weekend.', ['Size M in both garments']),
        items: [
          { product: 'classic-tee', sku: 'TEE-M-NAVY', quantity: 1 },
          { product: 'trail-hoodie', sku: 'HOODIE-M-FOREST', quantity: 1 },
          { product: 'steel-bottle', sku: 'STEEL-BOTTLE', quantity: 1 },
        ],
      },
    ],
    // The header lists these in this order; a product or bundle may be in several (ADR 190).
    collections: [
      {
        handle: 'apparel',
        title: 'Apparel',
        description: 'Tees, hoodies and knits for every day.',
        items: [
          { product: 'classic-tee' },
          { product: 'trail-hoodie' },
          { product: 'wool-beanie' },
          { bundle: 'weekend-pack' },
        ],
      },
      {
        handle: 'footwear',
        title: 'Footwear',
        description: 'Shoes made to be worn in.',
        items: [{ product: 'canvas-sneaker' }],
      },
      {
        handle: 'accessories',
        title: 'Accessories',
        description: 'The small things that go everywhere with you.',
        items: [
          { product: 'wool-beanie' },
          { product: 'sunglasses' },
          { product: 'tote-bag' },
          { product: 'umbrella' },
          { product: 'steel-bottle' },
          { product: 'laptop-sleeve' },
          { product: 'phone-stand' },
          { product: 'headphones' },
        ],
      },
      {
        handle: 'home',
        title: 'Home',
        description: 'For the kitchen, the desk and the sofa.',
        items: [
          { product: 'ceramic-mug' },
          { product: 'pour-over' },
          { product: 'coffee-beans' },
          { product: 'candle' },
          { product: 'throw-blanket' },
          { product: 'plant-pot' },
          { product: 'desk-lamp' },
          { product: 'water-filter' },
          { bundle: 'coffee-kit' },
        ],
      },
      {
        handle: 'bundles',
        title: 'Bundles',
        description: 'Sets that go together, for less than their parts.',
        items: [{ bundle: 'coffee-kit' }, { bundle: 'desk-setup' }, { bundle: 'weekend-pack' }],
      },
    ],
    gift_cards: [
      { code: 'ACME-25', balance: '25.00' },
      { code: 'ACME-500', balance: '500.00' },
      { code: 'ACME-ZERO', balance: '0.00' },
    ],
  },
  {
    store: {
      slug: 'vip',
      title: 'VIP Reserve',
      description: 'Members-only pieces for invited guests.',
      favicon_url: vipMedia('vip-favicon.svg'),
      custom_domain: 'members.vip.test',
      restricted: true,
      tax_rate_bps: 0,
      shipping_flat: '0.00',
      contact_email: 'concierge@vip.test',
      policies: {
        privacy: '<p>Membership details and orders are kept for our members only and never shared.</p>',
      },
      allowed_recipients: [{ ...VIP_RECIPIENT }],
      allowed_domain_tokens: [VIP_DOMAIN_TOKEN],
    },
    products: vipProducts,
    bundles: [],
    collections: [
      { handle: 'timepieces', title: 'Timepieces', items: [{ product: 'vip-reserve-watch' }] },
      {
        handle: 'accessories',
        title: 'Accessories',
        items: [{ product: 'vip-reserve-wallet' }, { product: 'vip-reserve-scarf' }],
      },
    ],
    gift_cards: [],
  },
];
