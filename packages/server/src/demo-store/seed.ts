// Fills a site with the demo store through the public API, with the site's API key, exactly as a
// merchant's script would: npm start uses it for the demo site, tests for their own sites.
import type { FastifyInstance } from 'fastify';
import { DEMO_COLLECTIONS, DEMO_COMMERCE_SETTINGS, DEMO_COUPON, DEMO_DOWNLOAD_SLUG, DEMO_GIFT_CARD_SLUG, DEMO_PRODUCTS } from './content.js';
import { brewingGuidePdf } from './guide-pdf.js';

export interface DemoContentSite {
  siteId: string;
  apiKey: string;
}

export interface DemoContent {
  products: { id: string; slug: string; name: string }[];
  collections: { id: string; slug: string; name: string }[];
  couponCode: string;
}

export async function seedDemoContent(app: FastifyInstance, site: DemoContentSite): Promise<DemoContent> {
  const headers = { authorization: site.apiKey, 'wix-site-id': site.siteId };
  const call = async <T>(method: 'POST' | 'PATCH' | 'PUT', url: string, payload: unknown): Promise<T> => {
    const res = await app.inject({ method, url, headers, payload: payload as Record<string, unknown> });
    if (res.statusCode !== 200) throw new Error(`demo content: ${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return res.json() as T;
  };

  const collections: DemoContent['collections'] = [];
  for (const c of DEMO_COLLECTIONS) {
    const { collection } = await call<{ collection: { id: string; slug: string; name: string } }>('POST', '/stores/v1/collections', {
      collection: { name: c.name, slug: c.slug, description: c.description, media: { mainMedia: { image: { url: `/media/demo/${c.image}`, width: 800, height: 800 } } } },
    });
    collections.push({ id: collection.id, slug: collection.slug, name: collection.name });
  }

  const products: DemoContent['products'] = [];
  const members = new Map<string, string[]>();
  for (const p of DEMO_PRODUCTS) {
    const { product } = await call<{ product: { id: string; slug: string; name: string } }>('POST', '/stores/v1/products', { product: { productType: 'physical', ...p.product } });
    products.push({ id: product.id, slug: product.slug, name: product.name });
    for (const slug of p.collections) members.set(slug, [...(members.get(slug) ?? []), product.id]);
  }
  for (const c of collections) {
    const productIds = members.get(c.slug);
    if (productIds?.length) await call('POST', `/stores/v1/collections/${c.id}/productIds`, { productIds });
  }

  await call('POST', '/stores/v2/coupons', { specification: DEMO_COUPON });
  await call('PATCH', '/_api/bodega/v1/commerce-settings', { settings: DEMO_COMMERCE_SETTINGS });
  // Buying the digital gift card issues a card (services/gift-cards).
  const giftCard = products.filter((p) => p.slug === DEMO_GIFT_CARD_SLUG).map((p) => p.id);
  await call('PUT', '/bodega/v1/gift-cards/settings', { productIds: giftCard });
  // The downloadable guide gets its PDF (services/digital), uploaded as a merchant would.
  for (const guide of products.filter((p) => p.slug === DEMO_DOWNLOAD_SLUG)) {
    const res = await app.inject({
      method: 'POST', url: `/bodega/v1/digital-products/${guide.id}/files?fileName=slow-brew-recipe-guide.pdf`,
      headers: { ...headers, 'content-type': 'application/pdf' }, payload: brewingGuidePdf(),
    });
    if (res.statusCode !== 200) throw new Error(`demo content: the guide's PDF answered ${res.statusCode}: ${res.body}`);
  }
  return { products, collections, couponCode: DEMO_COUPON.code };
}
