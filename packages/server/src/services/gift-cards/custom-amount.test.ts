// A shopper's own gift-card amount (catalogReference.options.customAmount) through the official
// @wix/ecom package: priced exactly, kept apart per amount, paid, and issued at that value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { checkout, currentCart } from '@wix/ecom';
import { signInApp, type SignInApp } from '../../test/sign-in.js';
import type { TestSite } from '../../test/harness.js';
import { redirectWixFetch } from '../../test/wix-fetch.js';
import { apiKey, catalogLine, createProduct, NEW_YORK, placeOrder, type WireProduct } from '../../test/commerce.js';
import { WIX_STORES_APP_ID } from '../catalog/products.js';
import { TEST_TOKENS } from '../payments/service.js';

let t: SignInApp;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let site: TestSite;
let card: WireProduct;
let lamp: WireProduct;

beforeAll(async () => {
  t = await signInApp({ listen: true });
  wixFetch = redirectWixFetch(t.url);
  site = await t.createSite();
  card = await createProduct(t.app, site, {
    name: 'Gift Card', productType: 'digital', priceData: { price: 25 },
    customTextFields: [{ title: 'Recipient', maxLength: 300 }, { title: 'Message', maxLength: 500 }],
  });
  lamp = await createProduct(t.app, site, { name: 'Lamp', priceData: { price: 40 }, weight: 1 });
  await settings({ productIds: [card.id], minCustomAmount: '5', maxCustomAmount: '500' });
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

async function settings(payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'PUT', url: '/bodega/v1/gift-cards/settings', headers: apiKey(site), payload });
  expect(res.statusCode, res.body).toBe(200);
}

async function storefront() {
  const sf = createClient({ modules: { currentCart, checkout }, auth: OAuthStrategy({ clientId: site.clientId }) });
  sf.auth.setTokens(await sf.auth.generateVisitorTokens());
  return sf;
}

const giftLine = (customAmount: unknown, productId = card.id) => ({
  catalogReference: { appId: WIX_STORES_APP_ID, catalogItemId: productId, options: { customAmount, customTextFields: { Recipient: 'Ada <ada@example.com>' } } },
  quantity: 1,
});

describe('a custom gift-card amount', () => {
  it('is the line price in the cart and checkout, the order, and the issued card', async () => {
    const sf = await storefront();
    const added = await sf.currentCart.addToCurrentCart({ lineItems: [giftLine('37.45')] });
    const cart = added.cart as NonNullable<typeof added.cart> & { subtotal?: { amount?: string } };
    expect(cart.subtotal?.amount).toBe('37.45');
    expect(cart.lineItems?.[0].price?.amount).toBe('37.45');
    expect(cart.lineItems?.[0].catalogReference?.options).toMatchObject({ customAmount: '37.45' });
    const estimate = await sf.currentCart.estimateCurrentCartTotals({});
    expect(estimate.priceSummary?.subtotal?.amount).toBe('37.45');

    const checkoutId = (await sf.currentCart.createCheckoutFromCurrentCart({ channelType: currentCart.ChannelType.WEB })).checkoutId as string;
    await sf.checkout.updateCheckout(checkoutId, { buyerInfo: { email: 'grace@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } });
    expect((await sf.checkout.getCheckout(checkoutId)).priceSummary?.subtotal?.amount).toBe('37.45');
    const token = sf.auth.getTokens().accessToken.value;
    const paid = await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order-and-charge`, headers: { authorization: token }, payload: { id: checkoutId, paymentToken: TEST_TOKENS.approve } });
    expect(paid.statusCode, paid.body).toBe(200);
    const orderId = (paid.json() as { orderId: string }).orderId;
    const order = (await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: apiKey(site) })).json().order;
    expect(order).toMatchObject({ paymentStatus: 'PAID', lineItems: [{ price: { amount: '37.45' }, itemType: { preset: 'GIFT_CARD' } }] });
    const cards = (await t.app.inject({ method: 'GET', url: '/bodega/v1/gift-cards?search=ada%40example.com', headers: apiKey(site) })).json().giftCards;
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ balance: { amount: '37.45' }, initialValue: { amount: '37.45' }, orderId });
  });

  it('keeps two amounts on two lines and the same amount, however written, on one', async () => {
    const sf = await storefront();
    await sf.currentCart.addToCurrentCart({ lineItems: [giftLine('20'), giftLine('30')] });
    const added = await sf.currentCart.addToCurrentCart({ lineItems: [giftLine('20.00')] });
    const cart = added.cart as NonNullable<typeof added.cart> & { subtotal?: { amount?: string } };
    expect((cart.lineItems ?? []).map((l) => [l.price?.amount, l.quantity])).toEqual([['20.00', 2], ['30.00', 1]]);
    expect(cart.subtotal?.amount).toBe('70.00');
    // The checkout made from the cart keeps the amounts apart too, and adds the same one up.
    const checkoutId = (await sf.currentCart.createCheckoutFromCurrentCart({ channelType: currentCart.ChannelType.WEB })).checkoutId as string;
    const more = await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/add-to-checkout`, headers: { authorization: sf.auth.getTokens().accessToken.value }, payload: { lineItems: [giftLine('30.00')] } });
    expect(more.statusCode, more.body).toBe(200);
    const lines = more.json().checkout.lineItems as { price: { amount: string }; quantity: number }[];
    expect(lines.map((l) => [l.price.amount, l.quantity])).toEqual([['20.00', 2], ['30.00', 2]]);
  });

  it.each([
    ['below the minimum', '4.99', 'DECIMAL_GTE', /at least 5\.00 USD/],
    ['above the maximum', '500.01', 'DECIMAL_LTE', /at most 500\.00 USD/],
    ['malformed', '12,50', 'FORMAT', /not a decimal amount/],
    ['negative', '-10', 'DECIMAL_GTE', /negative/],
    ['finer than the currency', '10.001', 'DECIMAL_MAX_SCALE', /more than 2 decimal places/],
  ])('refuses an amount %s with a 400 saying why', async (_, amount, rule, words) => {
    const res = await t.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: { authorization: await t.visitorToken(site) }, payload: { lineItems: [giftLine(amount)] } });
    expect(res.statusCode, res.body).toBe(400);
    const violation = res.json().details.validationError.fieldViolations[0];
    expect(violation).toMatchObject({ field: 'lineItems[0].catalogReference.options.customAmount', violatedRule: rule });
    expect(violation.description).toMatch(words);
  });

  it('refuses a custom amount on a product that is not a gift card, through the official package too', async () => {
    const sf = await storefront();
    await expect(sf.currentCart.addToCurrentCart({ lineItems: [giftLine('20', lamp.id)] })).rejects.toThrow(/only a gift card takes a custom amount/);
    const direct = await t.app.inject({ method: 'POST', url: '/ecom/v1/checkouts', headers: { authorization: await t.visitorToken(site) }, payload: { channelType: 'WEB', lineItems: [giftLine('20', lamp.id)] } });
    expect(direct.statusCode, direct.body).toBe(400);
  });

  it('refuses custom amounts when the merchant has not set both limits, and stops selling one already in a cart', async () => {
    const token = await t.visitorToken(site);
    const before = await t.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: { authorization: token }, payload: { lineItems: [giftLine('15')] } });
    expect(before.statusCode, before.body).toBe(200);
    await settings({ productIds: [card.id], minCustomAmount: null, maxCustomAmount: null });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: { authorization: await t.visitorToken(site) }, payload: { lineItems: [giftLine('15')] } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details.validationError.fieldViolations[0].description).toMatch(/does not take custom gift-card amounts/);
      await expect(placeOrder(t.app, site, token, [catalogLine(card.id, 1, { customAmount: '15' })])).rejects.toThrow(/400|custom/);
    } finally {
      await settings({ productIds: [card.id], minCustomAmount: '5', maxCustomAmount: '500' });
    }
  });
});
