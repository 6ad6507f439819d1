import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../test/harness.js';
import { apiKey, catalogLine } from '../test/commerce.js';
import { seedDemoContent, type DemoContent } from './seed.js';
import { DEMO_DOWNLOAD_SLUG, DEMO_PRODUCTS } from './content.js';
import { brewingGuidePdf } from './guide-pdf.js';

let t: TestApp;
let site: TestSite;
let content: DemoContent;
beforeAll(async () => {
  t = await testApp();
  site = await t.createSite({ signupPolicy: 'open' });
  content = await seedDemoContent(t.app, site);
});
afterAll(() => t.close());

interface WireProduct {
  id: string;
  slug: string;
  name: string;
  productType: string;
  description: string;
  ribbons: { text: string }[];
  priceData: { price: number; discountedPrice: number };
  stock: { inStock: boolean };
  productOptions: { name: string; choices: { value: string }[] }[];
  variants: { id: string; choices: Record<string, string>; variant: { priceData: { price: number } } }[];
  media: { items: { image: { url: string; altText?: string } }[] };
}

async function visitorProducts(): Promise<WireProduct[]> {
  const token = await t.visitorToken(site);
  const res = await t.app.inject({ method: 'POST', url: '/stores-reader/v1/products/query', headers: { authorization: token }, payload: { query: { paging: { limit: 100 } } } });
  expect(res.statusCode).toBe(200);
  return res.json().products;
}

describe('the demo store content', () => {
  it('holds a dozen products with options, variants, a discount, a ribbon, one out of stock and a digital one', async () => {
    const products = await visitorProducts();
    expect(products).toHaveLength(DEMO_PRODUCTS.length);
    expect(products.length).toBeGreaterThanOrEqual(12);
    const bySlug = new Map(products.map((p) => [p.slug, p]));
    const shirt = bySlug.get('linen-camp-shirt');
    expect(shirt?.productOptions.map((o) => o.name)).toEqual(['Size', 'Colour']);
    expect(shirt?.variants).toHaveLength(12);
    expect(shirt?.variants.find((v) => v.choices.Size === 'XL')?.variant.priceData.price).toBe(62);
    expect(bySlug.get('merino-crew-sweater')?.priceData).toMatchObject({ price: 120, discountedPrice: 96 });
    expect(bySlug.get('waxed-canvas-tote')?.ribbons).toEqual([{ text: 'New' }]);
    expect(bySlug.get('wool-rib-beanie')?.stock.inStock).toBe(false);
    expect(bySlug.get('digital-gift-card')?.productType).toBe('digital');
    const beans = bySlug.get('house-espresso-blend');
    expect(beans?.variants.map((v) => [v.choices.Weight, v.variant.priceData.price])).toEqual([['250 g', 16], ['500 g', 29], ['1 kg', 52]]);
    for (const p of products) {
      expect(p.description.length, p.name).toBeGreaterThan(60);
      expect(p.description).not.toMatch(/lorem|ipsum/i);
      expect(p.media.items.length, p.name).toBeGreaterThan(0);
    }
    expect(content.products.map((p) => p.slug)).toEqual(DEMO_PRODUCTS.map((p) => p.product.slug));
  });

  it('serves every product and collection picture as an SVG from this server', async () => {
    const urls = new Set<string>();
    for (const p of await visitorProducts()) for (const m of p.media.items) urls.add(new URL(m.image.url).pathname);
    for (const c of content.collections) {
      const res = await t.app.inject({ method: 'GET', url: `/stores-reader/v1/collections/slug/${c.slug}`, headers: apiKey(site) });
      urls.add(new URL(res.json().collection.media.mainMedia.image.url).pathname);
    }
    expect(urls.size).toBeGreaterThanOrEqual(12);
    for (const url of urls) {
      expect(url).toMatch(/^\/media\/demo\/[a-z-]+\.svg$/);
      const image = await t.app.inject({ method: 'GET', url });
      expect(image.statusCode, url).toBe(200);
      expect(image.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(image.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="800" height="800"/);
    }
    expect((await t.app.inject({ method: 'GET', url: '/media/demo/missing.svg' })).statusCode).toBe(404);
  });

  it('attaches a real PDF to the downloadable guide', async () => {
    const guide = content.products.find((p) => p.slug === DEMO_DOWNLOAD_SLUG);
    const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/digital-products/${guide?.id}`, headers: apiKey(site) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().files).toMatchObject([{ fileName: 'slow-brew-recipe-guide.pdf', contentType: 'application/pdf' }]);
    const pdf = brewingGuidePdf().toString('latin1');
    expect(pdf).toMatch(/^%PDF-1\.4\n/);
    expect(pdf).toMatch(/%%EOF\n$/);
    // The cross-reference table points at each object.
    const xref = Number(/startxref\n(\d+)/.exec(pdf)?.[1]);
    expect(pdf.slice(xref, xref + 4)).toBe('xref');
    for (const [i, m] of [...pdf.matchAll(/(\d{10}) 00000 n /g)].entries()) {
      const offset = Number(m[1]);
      const index = i + 1;
      expect(pdf.slice(offset, offset + 8)).toBe(`${index} 0 obj\n`);
    }
  });

  it('groups the products in four collections', async () => {
    expect(content.collections.map((c) => c.slug)).toEqual(['apparel', 'coffee', 'home', 'gifts']);
    const counts: Record<string, number> = {};
    for (const c of content.collections) {
      const res = await t.app.inject({ method: 'GET', url: `/stores-reader/v1/collections/slug/${c.slug}`, headers: apiKey(site) });
      counts[c.slug] = res.json().collection.numberOfProducts;
    }
    expect(counts).toEqual({ apparel: 4, coffee: 4, home: 3, gifts: 6 });
  });

  it('takes the WELCOME10 coupon and prices US delivery, free delivery over $75, pickup and New York tax', async () => {
    const token = await t.visitorToken(site);
    const products = await visitorProducts();
    const mug = products.find((p) => p.slug === 'speckled-stoneware-mug') as WireProduct;
    const cart = (method: 'POST' | 'PATCH', path: string, payload: unknown) =>
      t.app.inject({ method, url: `/ecom/v1/carts/current${path}`, headers: { authorization: token }, payload: payload as Record<string, unknown> });
    expect((await cart('POST', '/add-to-cart', { lineItems: [catalogLine(mug.id, 2, { options: { Colour: 'Charcoal' } })] })).statusCode).toBe(200);
    const coupon = await cart('PATCH', '', { couponCode: content.couponCode });
    expect(coupon.statusCode, coupon.body).toBe(200);

    const ny = { country: 'US', subdivision: 'US-NY', city: 'Brooklyn', postalCode: '11249', addressLine: '1 Main St' };
    const small = (await cart('POST', '/estimate-totals', { shippingAddress: ny })).json();
    // Two mugs at $18 (22 less 4): $36, 10% off is $3.60; standard delivery $6.95 under $75.
    expect(small.priceSummary).toMatchObject({ subtotal: { amount: '36.00' }, discount: { amount: '3.60' }, shipping: { amount: '6.95' } });
    expect(small.taxSummary.calculationDetails.rateType).toBe('MANUAL_RATE');
    expect(Number(small.priceSummary.tax.amount)).toBeGreaterThan(0);
    const codes = small.shippingInfo.carrierServiceOptions[0].shippingOptions.map((o: { code: string }) => o.code);
    expect(codes).toEqual(['standard', 'express', 'pickup-brooklyn']);

    expect((await cart('POST', '/add-to-cart', { lineItems: [catalogLine(mug.id, 3, { options: { Colour: 'Charcoal' } })] })).statusCode).toBe(200);
    const large = (await cart('POST', '/estimate-totals', { shippingAddress: ny })).json();
    expect(large.priceSummary).toMatchObject({ subtotal: { amount: '90.00' }, shipping: { amount: '0.00' } });

    const abroad = (await cart('POST', '/estimate-totals', { shippingAddress: { country: 'FR', city: 'Paris' } })).json();
    expect(abroad.shippingInfo.carrierServiceOptions[0].shippingOptions.map((o: { code: string }) => o.code)).toEqual(['international', 'pickup-brooklyn']);
  });
});
