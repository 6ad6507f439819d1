// What the demo store sells, in the shape of the Stores v1 API (prices in dollars, as that wire
// writes them): clothing with size × colour, coffee by weight, a mug, a digital gift card, one
// product out of stock, discounts and ribbons; plus collections, a coupon and shipping/tax rules.

export interface DemoProduct {
  /** Wire body of POST /stores/v1/products (`product`). */
  product: Record<string, unknown>;
  collections: string[];
}

const DEMO_DOWNLOAD_SLUG_VALUE = 'slow-brew-recipe-guide';
const image = (file: string, altText: string) => ({ image: { url: `/media/demo/${file}`, width: 800, height: 800, altText }, title: altText });
const choices = (...values: string[]) => values.map((value) => ({ value, description: value }));
const care = (text: string) => ({ title: 'Care', description: text });
const SHIPPING_NOTE = { title: 'Shipping & returns', description: 'Free standard shipping in the US on orders over $75. Returns within 30 days, unworn and unwashed.' };

/** Size × colour variants; `stock(size, colour)` gives each one's quantity. */
function apparelVariants(sizes: string[], colours: string[], stock: (size: string, colour: string) => number, extra: Record<string, number> = {}) {
  return sizes.flatMap((size) => colours.map((colour) => ({
    choices: { Size: size, Colour: colour },
    sku: `${size}-${colour.slice(0, 3).toUpperCase()}`,
    ...(extra[size] !== undefined && { price: extra[size] }),
    stock: { quantity: stock(size, colour) },
  })));
}

export const DEMO_COLLECTIONS: readonly { slug: string; name: string; description: string; image: string }[] = [
  { slug: 'apparel', name: 'Apparel', description: 'Linen, merino and waxed canvas: things to wear and carry, made to last.', image: 'linen-shirt-sage.svg' },
  { slug: 'coffee', name: 'Coffee', description: 'Beans roasted every Tuesday in small batches, and the gear to brew them.', image: 'house-espresso.svg' },
  { slug: 'home', name: 'Kitchen & Home', description: 'Stoneware, linen and small things for the kitchen counter.', image: 'stoneware-mug-white.svg' },
  { slug: 'gifts', name: 'Gifts', description: 'Easy to give, easy to love — including a gift card delivered by e-mail.', image: 'gift-card.svg' },
];

export const DEMO_PRODUCTS: readonly DemoProduct[] = [
  {
    product: {
      name: 'Linen Camp Shirt',
      slug: 'linen-camp-shirt',
      description: 'A relaxed camp-collar shirt in washed European linen. Breathable on hot days, soft from the first wear, and cut a little boxy so it sits well untucked.',
      sku: 'SHIRT-LIN',
      priceData: { price: 58 },
      weight: 0.25,
      manageVariants: true,
      stock: { trackInventory: true },
      productOptions: [{ name: 'Size', choices: choices('S', 'M', 'L', 'XL') }, { name: 'Colour', choices: choices('Sand', 'Sage', 'Navy') }],
      variants: apparelVariants(['S', 'M', 'L', 'XL'], ['Sand', 'Sage', 'Navy'], (size, colour) => (size === 'XL' && colour === 'Navy' ? 0 : size === 'M' ? 12 : 6), { XL: 62 }),
      media: { items: [image('linen-shirt-sand.svg', 'Linen camp shirt in sand'), image('linen-shirt-sage.svg', 'Linen camp shirt in sage'), image('linen-shirt-navy.svg', 'Linen camp shirt in navy')] },
      additionalInfoSections: [care('Machine wash cold, line dry. Linen softens with every wash.'), SHIPPING_NOTE],
    },
    collections: ['apparel'],
  },
  {
    product: {
      name: 'Merino Crew Sweater',
      slug: 'merino-crew-sweater',
      description: 'Fine-gauge extra-fine merino that keeps you warm without bulk. Ribbed neck, cuffs and hem; naturally odour-resistant, so it needs washing less often.',
      sku: 'SWTR-MER',
      priceData: { price: 120 },
      discount: { type: 'PERCENT', value: 20 },
      ribbon: 'Sale',
      weight: 0.35,
      manageVariants: true,
      stock: { trackInventory: true },
      productOptions: [{ name: 'Size', choices: choices('S', 'M', 'L') }, { name: 'Colour', choices: choices('Oat', 'Charcoal') }],
      variants: apparelVariants(['S', 'M', 'L'], ['Oat', 'Charcoal'], (size) => (size === 'L' ? 3 : 8)),
      media: { items: [image('merino-sweater-oat.svg', 'Merino crew sweater in oat'), image('merino-sweater-charcoal.svg', 'Merino crew sweater in charcoal')] },
      additionalInfoSections: [care('Hand wash cool or use the wool cycle; dry flat.'), SHIPPING_NOTE],
    },
    collections: ['apparel', 'gifts'],
  },
  {
    product: {
      name: 'Waxed Canvas Tote',
      slug: 'waxed-canvas-tote',
      description: 'Heavy 18 oz cotton canvas, waxed to shrug off rain, with leather-reinforced handles long enough for the shoulder. Holds a week of groceries or a laptop and a coat.',
      sku: 'TOTE-WAX',
      priceData: { price: 42 },
      ribbon: 'New',
      weight: 0.6,
      stock: { trackInventory: true, quantity: 25 },
      media: { items: [image('canvas-tote.svg', 'Waxed canvas tote with leather handles')] },
      additionalInfoSections: [care('Wipe clean with a damp cloth; re-wax once a year.')],
    },
    collections: ['apparel', 'gifts'],
  },
  {
    product: {
      name: 'Wool Rib Beanie',
      slug: 'wool-rib-beanie',
      description: 'A deep-cuffed beanie knitted from lambswool in a chunky rib, finished with a pom-pom. Back in stock in the autumn.',
      sku: 'BEANIE-RIB',
      priceData: { price: 28 },
      weight: 0.1,
      stock: { trackInventory: true, quantity: 0 },
      media: { items: [image('wool-beanie.svg', 'Red wool rib beanie with pom-pom')] },
    },
    collections: ['apparel'],
  },
  {
    product: {
      name: 'House Espresso Blend',
      slug: 'house-espresso-blend',
      description: 'Our everyday espresso: Brazilian and Colombian beans roasted medium-dark for notes of dark chocolate and toasted hazelnut. Forgiving in a home machine, lovely with milk.',
      sku: 'COF-HOUSE',
      priceData: { price: 16 },
      ribbon: 'Best seller',
      weight: 0.25,
      manageVariants: true,
      productOptions: [{ name: 'Weight', choices: choices('250 g', '500 g', '1 kg') }],
      variants: [
        { choices: { Weight: '250 g' }, sku: 'COF-HOUSE-250', weight: 0.25 },
        { choices: { Weight: '500 g' }, sku: 'COF-HOUSE-500', price: 29, weight: 0.5 },
        { choices: { Weight: '1 kg' }, sku: 'COF-HOUSE-1000', price: 52, weight: 1 },
      ],
      media: { items: [image('house-espresso.svg', 'Bag of House Espresso Blend beans')] },
      additionalInfoSections: [{ title: 'Brewing', description: '18 g in, 36 g out, in 27–30 seconds. Best 7–30 days after the roast date on the bag.' }],
    },
    collections: ['coffee'],
  },
  {
    product: {
      name: 'Ethiopia Yirgacheffe',
      slug: 'ethiopia-yirgacheffe',
      description: 'A washed single origin from the Gedeo zone, light-roasted to keep its jasmine and bergamot. Bright and tea-like as a pour-over.',
      sku: 'COF-YIRG',
      priceData: { price: 19 },
      weight: 0.25,
      manageVariants: true,
      productOptions: [{ name: 'Weight', choices: choices('250 g', '500 g') }],
      variants: [
        { choices: { Weight: '250 g' }, sku: 'COF-YIRG-250', weight: 0.25 },
        { choices: { Weight: '500 g' }, sku: 'COF-YIRG-500', price: 35, weight: 0.5 },
      ],
      media: { items: [image('ethiopia-yirgacheffe.svg', 'Bag of Ethiopia Yirgacheffe beans')] },
    },
    collections: ['coffee'],
  },
  {
    product: {
      name: 'Ceramic Pour-Over Dripper',
      slug: 'ceramic-pour-over-dripper',
      description: 'A cone dripper in glazed porcelain that holds its heat for an even extraction. Fits standard #2 filters and sits on most mugs.',
      sku: 'GEAR-DRIP',
      priceData: { price: 34 },
      weight: 0.45,
      stock: { trackInventory: true, quantity: 15 },
      media: { items: [image('pour-over-dripper.svg', 'Ceramic pour-over dripper on a cup')] },
    },
    collections: ['coffee', 'home'],
  },
  {
    product: {
      name: 'Speckled Stoneware Mug',
      slug: 'speckled-stoneware-mug',
      description: 'Thrown and glazed by hand in a small studio in Portugal, so no two are quite alike. Holds 350 ml; dishwasher and microwave safe.',
      sku: 'MUG-STN',
      priceData: { price: 22 },
      discount: { type: 'AMOUNT', value: 4 },
      weight: 0.4,
      manageVariants: true,
      productOptions: [{ name: 'Colour', choices: choices('Speckled White', 'Charcoal') }],
      variants: [
        { choices: { Colour: 'Speckled White' }, sku: 'MUG-STN-WHT' },
        { choices: { Colour: 'Charcoal' }, sku: 'MUG-STN-CHR' },
      ],
      media: { items: [image('stoneware-mug-white.svg', 'Speckled white stoneware mug'), image('stoneware-mug-charcoal.svg', 'Charcoal stoneware mug')] },
    },
    collections: ['home', 'gifts'],
  },
  {
    product: {
      name: 'Linen Tea Towels, Set of 2',
      slug: 'linen-tea-towels',
      description: 'Two heavyweight linen towels with a woven blue stripe and a hanging loop. Lint-free on glasses and more absorbent with every wash.',
      sku: 'HOME-TOWEL',
      priceData: { price: 24 },
      weight: 0.3,
      media: { items: [image('linen-tea-towel.svg', 'Striped linen tea towel on a hook')] },
    },
    collections: ['home'],
  },
  {
    product: {
      name: 'Field Notebook',
      slug: 'field-notebook',
      description: 'A5, 96 pages of 100 gsm paper that takes fountain pens without bleeding, in a cloth-bound cover with an elastic closure.',
      sku: 'PAPER-NB',
      priceData: { price: 14 },
      weight: 0.2,
      manageVariants: true,
      productOptions: [{ name: 'Paper', choices: choices('Ruled', 'Dotted', 'Blank') }],
      variants: [
        { choices: { Paper: 'Ruled' }, sku: 'PAPER-NB-R' },
        { choices: { Paper: 'Dotted' }, sku: 'PAPER-NB-D' },
        { choices: { Paper: 'Blank' }, sku: 'PAPER-NB-B' },
      ],
      media: { items: [image('field-notebook.svg', 'Navy cloth-bound field notebook')] },
    },
    collections: ['gifts'],
  },
  {
    product: {
      name: 'Enamel Pin Set',
      slug: 'enamel-pin-set',
      description: 'Four hard-enamel pins with gold-tone edges and rubber clutches: a tick, a star, a square and an arch. Limited run.',
      sku: 'GIFT-PINS',
      priceData: { price: 18 },
      ribbon: 'Limited',
      weight: 0.05,
      stock: { trackInventory: true, quantity: 40 },
      media: { items: [image('enamel-pins.svg', 'Four enamel pins on a card')] },
    },
    collections: ['gifts'],
  },
  {
    product: {
      name: 'Slow Brew Recipe Guide',
      slug: DEMO_DOWNLOAD_SLUG_VALUE,
      productType: 'digital',
      description: 'Our baristas\' slow-brew recipes as a printable PDF: ratios, grind sizes, water temperatures and a brew log. Download it as soon as it is paid.',
      sku: 'GUIDE-SLOW-BREW',
      priceData: { price: 6 },
      media: { items: [image('brewing-guide.svg', 'The Slow Brew Recipe Guide booklet')] },
    },
    collections: ['coffee'],
  },
  {
    product: {
      name: 'Digital Gift Card',
      slug: 'digital-gift-card',
      productType: 'digital',
      description: 'Delivered by e-mail with your message, and spendable on anything in the shop. Never expires.',
      sku: 'GIFT-CARD',
      priceData: { price: 25 },
      manageVariants: true,
      productOptions: [{ name: 'Amount', choices: choices('$25', '$50', '$100') }],
      variants: [
        { choices: { Amount: '$25' }, sku: 'GIFT-CARD-25' },
        { choices: { Amount: '$50' }, sku: 'GIFT-CARD-50', price: 50 },
        { choices: { Amount: '$100' }, sku: 'GIFT-CARD-100', price: 100 },
      ],
      // Who the card is for and what its mail says (services/gift-cards/recipient.ts reads these by title).
      customTextFields: [
        { title: 'Recipient', maxLength: 300, mandatory: false },
        { title: 'Message', maxLength: 500, mandatory: false },
      ],
      media: { items: [image('gift-card.svg', 'Bodega gift card')] },
    },
    collections: ['gifts'],
  },
];

export const DEMO_GIFT_CARD_SLUG = 'digital-gift-card';

/** The demo's downloadable product: its PDF is drawn at seed time (guide-pdf.ts) and attached through the API. */
export const DEMO_DOWNLOAD_SLUG = DEMO_DOWNLOAD_SLUG_VALUE;

export const DEMO_COUPON = {
  code: 'WELCOME10',
  name: 'Welcome: 10% off your order',
  percentOffRate: 10,
};

/** Bodega's commerce settings (PATCH /_api/bodega/v1/commerce-settings): amounts as decimal strings. */
export const DEMO_COMMERCE_SETTINGS = {
  inventoryUpdateTrigger: 'ON_ORDER_PLACED',
  weightUnit: 'KG',
  shippingRegions: [
    {
      id: 'us',
      name: 'United States',
      country: 'US',
      rules: [
        // Same code: the cheapest matching tier wins, so standard delivery is free from $75.
        { code: 'standard', title: 'Standard delivery', rate: '6.95', deliveryTime: '3–5 business days', type: 'BY_TOTAL_PRICE', operator: 'LT', threshold: '75' },
        { code: 'standard', title: 'Standard delivery (free over $75)', rate: '0', deliveryTime: '3–5 business days', type: 'BY_TOTAL_PRICE', operator: 'GTE', threshold: '75' },
        { code: 'express', title: 'Express delivery', rate: '14.95', deliveryTime: '1–2 business days', type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: '0' },
      ],
    },
    {
      id: 'international',
      name: 'Rest of the world',
      country: '*',
      rules: [
        { code: 'international', title: 'International delivery', rate: '19.95', deliveryTime: '7–14 business days', type: 'BY_TOTAL_WEIGHT', operator: 'LTE', threshold: '2' },
        { code: 'international', title: 'International delivery (heavy parcel)', rate: '34.95', deliveryTime: '7–14 business days', type: 'BY_TOTAL_WEIGHT', operator: 'GT', threshold: '2' },
      ],
    },
  ],
  pickupOptions: [
    {
      code: 'pickup-brooklyn',
      title: 'Pick up at Bodega Brooklyn',
      cost: '0',
      instructions: 'Ready within 2 hours, Monday to Saturday 9:00–18:00. Bring your order number.',
      address: { country: 'US', subdivision: 'US-NY', city: 'Brooklyn', addressLine: '214 Wythe Avenue', postalCode: '11249' },
    },
  ],
  tax: {
    pricesIncludeTax: false,
    taxShipping: false,
    rates: [
      { country: 'US', subdivision: 'US-NY', rate: '8.875', name: 'New York sales tax' },
      { country: 'US', subdivision: 'US-CA', rate: '7.25', name: 'California sales tax' },
      { country: 'GB', rate: '20', name: 'VAT' },
    ],
  },
  paymentProvider: 'test',
};
