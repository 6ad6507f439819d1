// The demo store's catalog: a few products and collections, with pictures this server serves
// itself under /media/demo/, so a fresh install shows a working shop without any outside host.
import type { ProductPatch } from './wire.js';

function picture(background: string, accent: string, shape: string, label: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800">
<rect width="800" height="800" fill="${background}"/>
<g fill="${accent}">${shape}</g>
<text x="400" y="730" font-family="Helvetica, Arial, sans-serif" font-size="44" text-anchor="middle" fill="#1f2933">${label}</text>
</svg>
`;
}

/** File name → SVG document. */
export const DEMO_MEDIA: Readonly<Record<string, string>> = {
  'tee.svg': picture('#f4efe6', '#2f4858', '<path d="M250 180 L330 140 Q400 190 470 140 L550 180 L640 280 L570 340 L540 310 L540 620 L260 620 L260 310 L230 340 L160 280 Z"/>', 'Bodega Tee'),
  'tote.svg': picture('#e8f1ec', '#3d6b4f', '<path d="M300 300 Q300 170 400 170 Q500 170 500 300" fill="none" stroke="#3d6b4f" stroke-width="24"/><rect x="220" y="290" width="360" height="360" rx="18"/>', 'Canvas Tote'),
  'mug.svg': picture('#fbeee6', '#b5523b', '<rect x="230" y="230" width="280" height="360" rx="30"/><path d="M510 300 Q620 300 620 410 Q620 520 510 520" fill="none" stroke="#b5523b" stroke-width="36"/>', 'Ceramic Mug'),
  'beans.svg': picture('#f3ece3', '#5b3a29', '<ellipse cx="330" cy="360" rx="90" ry="130" transform="rotate(-25 330 360)"/><ellipse cx="480" cy="420" rx="90" ry="130" transform="rotate(20 480 420)"/>', 'Espresso Beans'),
  'ebook.svg': picture('#e9eef6', '#34598a', '<rect x="250" y="170" width="300" height="420" rx="12"/><rect x="290" y="230" width="220" height="24" fill="#e9eef6"/><rect x="290" y="280" width="160" height="24" fill="#e9eef6"/>', 'Recipe e-Book'),
};

const image = (file: string, title: string) => [{ url: `/media/demo/${file}`, width: 800, height: 800, title, altText: title }];

/** What the demo catalog holds; prices in minor units of USD (the demo site's currency). */
export const DEMO_PRODUCTS: readonly (ProductPatch & { collections: string[] })[] = [
  {
    name: 'Bodega Tee',
    description: 'Soft organic cotton tee with the Bodega mark.',
    productType: 'physical',
    price: 2500n,
    weight: '0.2',
    sku: 'TEE',
    trackInventory: true,
    manageVariants: true,
    options: [{ optionType: 'drop_down', name: 'Size', choices: ['S', 'M', 'L'].map((value) => ({ value, description: value, inStock: true, visible: true })) }],
    variants: [
      { choices: { Size: 'S' }, quantity: 10, sku: 'TEE-S' },
      { choices: { Size: 'M' }, quantity: 10, sku: 'TEE-M' },
      { choices: { Size: 'L' }, quantity: 10, sku: 'TEE-L', price: 2700n },
    ],
    media: image('tee.svg', 'Bodega Tee'),
    collections: ['apparel'],
  },
  {
    name: 'Canvas Tote',
    description: 'A sturdy everyday tote bag.',
    productType: 'physical',
    price: 1800n,
    weight: '0.3',
    trackInventory: true,
    quantity: 25,
    ribbon: 'New',
    media: image('tote.svg', 'Canvas Tote'),
    collections: ['apparel'],
  },
  {
    name: 'Ceramic Mug',
    description: 'Hand-glazed stoneware mug, 350 ml.',
    productType: 'physical',
    price: 1400n,
    discount: { type: 'PERCENT', value: '10' },
    weight: '0.4',
    ribbon: 'Sale',
    media: image('mug.svg', 'Ceramic Mug'),
    collections: ['kitchen'],
  },
  {
    name: 'Espresso Beans 250 g',
    description: 'Dark roast, whole beans.',
    productType: 'physical',
    price: 1200n,
    weight: '0.25',
    trackInventory: true,
    quantity: 40,
    media: image('beans.svg', 'Espresso Beans'),
    collections: ['kitchen'],
  },
  {
    name: 'Recipe e-Book',
    description: 'Thirty recipes for the Bodega kitchen, as a PDF.',
    productType: 'digital',
    price: 900n,
    media: image('ebook.svg', 'Recipe e-Book'),
    collections: ['kitchen'],
  },
];

export const DEMO_COLLECTIONS: readonly { slug: string; name: string; description: string }[] = [
  { slug: 'apparel', name: 'Apparel', description: 'Things to wear and carry.' },
  { slug: 'kitchen', name: 'Kitchen', description: 'For the coffee corner.' },
];
