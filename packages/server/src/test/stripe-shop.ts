/**
 * A test app whose site takes card payments through Stripe's official SDK pointed at the local
 * Stripe stand-in (keys set as an owner would), with one product in stock, and the official
 * @wix/* packages' fetch sent to the app. Test code only.
 */
import { apiKey, createProduct, type WireProduct } from './commerce.js';
import { testApp, type TestApp, type TestSite } from './harness.js';
import { STAND_IN_SECRET_KEY, STAND_IN_WEBHOOK_SECRET, startStripeStandIn, type StandIn } from './stripe-stand-in.js';
import { listen, redirectWixFetch } from './wix-fetch.js';

export interface StripeShop {
  t: TestApp;
  stand: StandIn;
  site: TestSite;
  product: WireProduct;
  close(): Promise<void>;
}

export async function stripeShop(now: () => Date): Promise<StripeShop> {
  const stand = await startStripeStandIn();
  const t = await testApp({ now, payments: { stripeApi: stand.api } });
  const site = await t.createSite({ ownerEmail: `owner.${Date.now()}@shop.example`, ownerPassword: 'Owner-pass-123' });
  const product = await createProduct(t.app, site, { name: 'Chair', priceData: { price: 120 }, stock: { trackInventory: true, quantity: 500 } });
  const wixFetch = redirectWixFetch(await listen(t.app));
  const res = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/payment-settings', headers: apiKey(site), payload: { settings: { provider: 'stripe', secretKey: STAND_IN_SECRET_KEY, webhookSecret: STAND_IN_WEBHOOK_SECRET } } });
  if (res.statusCode !== 200) throw new Error(`payment settings: ${res.body}`);
  return {
    t, stand, site, product,
    async close() {
      wixFetch.restore();
      await t.close();
      await stand.close();
    },
  };
}
