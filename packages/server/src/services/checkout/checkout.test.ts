import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { checkout, currentCart } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { keepEveryEvent } from '../../test/webhooks.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { apiKey, catalogLine, createProduct, memberToken, NEW_YORK, placeOrder, type WireProduct } from '../../test/commerce.js';

let t: TestApp;
let site: TestSite;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let lamp: WireProduct;
let ebook: WireProduct;

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  lamp = await createProduct(t.app, site, { name: 'Desk Lamp', priceData: { price: 45 }, weight: 1.2, stock: { trackInventory: true, quantity: 100 } });
  ebook = await createProduct(t.app, site, { name: 'Field Guide', productType: 'digital', priceData: { price: 9.99 } });
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

function shopper(s: TestSite = site) {
  return createClient({ modules: { checkout, currentCart }, auth: OAuthStrategy({ clientId: s.clientId }) });
}

async function http(token: string, method: 'GET' | 'POST' | 'PATCH', path: string, payload?: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method, url: `/ecom/v1/checkouts${path}`, headers: { authorization: token, ...headers }, ...(payload !== undefined && { payload: payload as Record<string, unknown> }) });
}

async function newCheckout(token: string, body: Record<string, unknown>) {
  const res = await http(token, 'POST', '', { channelType: 'WEB', ...body });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().checkout as { id: string; lineItems: { id: string; quantity: number }[]; [key: string]: unknown };
}

describe('checkout through the official checkout module', () => {
  it('creates a checkout directly, changes it and places an offline order', async () => {
    const client = shopper();
    const created = await client.checkout.createCheckout({ channelType: checkout.ChannelType.WEB, lineItems: [catalogLine(lamp.id, 1)] });
    expect(created).toMatchObject({ currency: 'USD', completed: false, channelType: 'WEB', buyerInfo: { visitorId: expect.any(String) } });
    expect(created.priceSummary?.subtotal?.amount).toBe('45.00');

    const added = await client.checkout.addToCheckout(created._id as string, { lineItems: [catalogLine(lamp.id, 2), catalogLine(ebook.id, 1)] });
    expect(added.checkout?.lineItems?.map((l) => l.quantity)).toEqual([3, 1]);
    const lampLine = added.checkout?.lineItems?.[0];
    const ebookLine = added.checkout?.lineItems?.[1];
    expect(lampLine).toMatchObject({ productName: { original: 'Desk Lamp' }, price: { amount: '45.00' }, lineItemPrice: { amount: '135.00' }, totalPriceAfterTax: { amount: '135.00' } });

    const fewer = await client.checkout.updateLineItemsQuantity(created._id as string, [{ _id: lampLine?._id as string, quantity: 2 }]);
    expect(fewer.checkout?.priceSummary?.subtotal?.amount).toBe('99.99');
    const removed = await client.checkout.removeLineItems(created._id as string, [ebookLine?._id as string]);
    expect(removed.checkout?.lineItems?.map((l) => l._id)).toEqual([lampLine?._id]);

    const got = await client.checkout.getCheckout(created._id as string);
    expect(got._id).toBe(created._id);
    expect(got._createdDate).toBeInstanceOf(Date);

    const updated = await client.checkout.updateCheckout(created._id as string, {
      buyerInfo: { email: 'grace@example.com' },
      shippingInfo: { shippingDestination: { address: NEW_YORK, contactDetails: { firstName: 'Grace' } } },
    });
    expect(updated.buyerInfo?.email).toBe('grace@example.com');
    expect(updated.shippingInfo?.selectedCarrierServiceOption).toMatchObject({ code: 'standard', title: 'Standard delivery' });
    expect(updated.violations).toEqual([]);

    const url = await client.checkout.getCheckoutUrl(created._id as string);
    expect(url.checkoutUrl).toMatch(new RegExp(`/checkout\\?checkoutId=${created._id}$`));

    const placed = await client.checkout.createOrder(created._id as string);
    expect(placed.orderId).toEqual(expect.any(String));
    const again = await client.checkout.createOrder(created._id as string);
    expect(again.orderId).toBe(placed.orderId);
    const done = await client.checkout.getCheckout(created._id as string);
    expect(done.completed).toBe(true);
    await expect(client.checkout.addToCheckout(created._id as string, { lineItems: [catalogLine(lamp.id)] }))
      .rejects.toMatchObject({ details: { applicationError: { code: 'CHECKOUT_ALREADY_COMPLETED' } } });
  });

  it('creates a checkout from the current cart and finds it by cart id; the cart goes once the order is placed', async () => {
    const client = shopper();
    const { cart } = await client.currentCart.addToCurrentCart({ lineItems: [catalogLine(ebook.id, 2)] });
    const { checkoutId } = await client.currentCart.createCheckoutFromCurrentCart({ channelType: currentCart.ChannelType.WEB, email: 'linus@example.com' });
    const byCart = await client.checkout.getCheckoutByCartId(cart?._id as string);
    expect(byCart.checkout?._id).toBe(checkoutId);
    expect(byCart.checkout?.lineItems?.map((l) => l._id)).toEqual(cart?.lineItems?.map((l) => l._id));
    expect((await client.currentCart.getCurrentCart()).checkoutId).toBe(checkoutId);
    const { orderId } = await client.checkout.createOrder(checkoutId as string);
    expect(orderId).toEqual(expect.any(String));
    await expect(client.currentCart.getCurrentCart()).rejects.toMatchObject({ details: { applicationError: { code: 'OWNED_CART_NOT_FOUND' } } });
  });

  it('applies and removes a coupon, refusing a bad one', async () => {
    const s = await t.createSite();
    const p = await createProduct(t.app, s, { name: 'Kite', priceData: { price: 30 }, productType: 'digital' });
    await t.app.inject({ method: 'POST', url: '/stores/v2/coupons', headers: apiKey(s), payload: { specification: { code: 'KITE5', moneyOffAmount: 5 } } });
    const client = shopper(s);
    const created = await client.checkout.createCheckout({ channelType: checkout.ChannelType.WEB, lineItems: [catalogLine(p.id)], couponCode: 'KITE5' });
    expect(created.appliedDiscounts?.[0]).toMatchObject({ coupon: { code: 'KITE5', amount: { amount: '5.00' } } });
    expect(created.priceSummary?.total?.amount).toBe('25.00');
    const without = await client.checkout.removeCoupon(created._id as string);
    expect(without.checkout?.priceSummary?.total?.amount).toBe('30.00');
    await expect(client.checkout.updateCheckout(created._id as string, {}, { couponCode: 'NOPE' })).rejects.toMatchObject({ details: { applicationError: { code: 'NOT_FOUND' } } });
  });
});

describe('who may use a checkout', () => {
  it('answers CHECKOUT_NOT_FOUND to another buyer and serves the buyer, the member and an API key', async () => {
    const owner = await t.visitorToken(site);
    const c = await newCheckout(owner, { lineItems: [catalogLine(ebook.id)] });
    const stranger = await t.visitorToken(site);
    for (const [method, path] of [['GET', `/${c.id}`], ['POST', `/${c.id}/create-order`], ['PATCH', `/${c.id}`]] as const) {
      const res = await http(stranger, method, path, method === 'GET' ? undefined : { checkout: {} });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json().details.applicationError.code).toBe('CHECKOUT_NOT_FOUND');
    }
    expect((await http(site.apiKey, 'GET', `/${c.id}`, undefined, { 'wix-site-id': site.siteId })).statusCode).toBe(200);
    const member = await memberToken(t.app, site);
    const mine = await newCheckout(member.token, { lineItems: [catalogLine(ebook.id)] });
    expect(mine.buyerInfo).toEqual({ memberId: member.memberId });
    expect((await http(member.token, 'GET', `/${mine.id}`)).statusCode).toBe(200);
    expect((await http(owner, 'GET', `/${mine.id}`)).statusCode).toBe(404);
    const elsewhere = await t.createSite();
    expect((await http(await t.visitorToken(elsewhere), 'GET', `/${c.id}`)).statusCode).toBe(404);
  });

  it('lets only an API key add custom line items and merchant discounts', async () => {
    const custom = { productName: { original: 'Engraving' }, price: '12.00', quantity: 1, itemType: { preset: 'SERVICE' } };
    expect((await http(await t.visitorToken(site), 'POST', '', { channelType: 'WEB', customLineItems: [custom] })).statusCode).toBe(403);
    const app = await http(site.apiKey, 'POST', '', { channelType: 'POS', customLineItems: [custom], merchantDiscounts: [{ percentage: 50 }] }, { 'wix-site-id': site.siteId });
    expect(app.statusCode).toBe(200);
    expect(app.json().checkout).toMatchObject({ channelType: 'POS', priceSummary: { subtotal: { amount: '12.00' }, discount: { amount: '6.00' }, total: { amount: '6.00' } } });
    const sdk = createClient({ modules: { checkout }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) });
    const { orderId } = await sdk.checkout.createOrder(app.json().checkout.id);
    expect(orderId).toEqual(expect.any(String));
  });
});

describe('what create-order refuses', () => {
  it.each([
    ['an empty checkout', {}, 'CHECKOUT_EMPTY'],
    ['a visitor without an e-mail', { lineItems: [catalogLine('DIGITAL')] }, 'EMAIL_REQUIRED'],
    ['a physical order without an address or pickup', { lineItems: [catalogLine('PHYSICAL')], checkoutInfo: { buyerInfo: { email: 'a@b.co' } } }, 'SHIPPING_DETAILS_REQUIRED'],
  ])('refuses %s', async (_name, body, code) => {
    const token = await t.visitorToken(site);
    const lines = ((body as { lineItems?: ReturnType<typeof catalogLine>[] }).lineItems ?? []).map((l) => catalogLine(l.catalogReference.catalogItemId === 'DIGITAL' ? ebook.id : lamp.id));
    const c = await newCheckout(token, { ...body, lineItems: lines });
    const res = await http(token, 'POST', `/${c.id}/create-order`, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().details.applicationError.code).toBe(code);
  });

  it('refuses a destination no region serves, and accepts pickup instead', async () => {
    const s = await t.createSite();
    await t.app.inject({
      method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers: apiKey(s),
      payload: { settings: { shippingRegions: [{ id: 'us', name: 'US', country: 'US', rules: [{ code: 'std', title: 'Standard', rate: '4', type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: '0' }] }] } },
    });
    const chair = await createProduct(t.app, s, { name: 'Chair', priceData: { price: 80 } });
    const token = await t.visitorToken(s);
    const c = await newCheckout(token, { lineItems: [catalogLine(chair.id)], checkoutInfo: { buyerInfo: { email: 'a@b.co' }, shippingInfo: { shippingDestination: { address: { country: 'FR', city: 'Paris' } } } } });
    expect(c.violations).toEqual([expect.objectContaining({ severity: 'ERROR', target: { other: { name: 'DELIVERY' } } })]);
    const refused = await http(token, 'POST', `/${c.id}/create-order`, {});
    expect(refused.json().details.applicationError.code).toBe('NO_SHIPPING_OPTIONS');

    await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers: apiKey(s), payload: { settings: { pickupOptions: [{ code: 'shop', title: 'Shop pickup', cost: '0', address: { country: 'US', city: 'Austin' } }] } } });
    await http(token, 'PATCH', `/${c.id}`, { checkout: { shippingInfo: { selectedCarrierServiceOption: { code: 'shop', logistics: { deliveryTimeSlot: { from: '2026-05-01T10:00:00Z', to: '2026-05-01T12:00:00Z' } } } } } });
    const placed = await http(token, 'POST', `/${c.id}/create-order`, {});
    expect(placed.statusCode).toBe(200);
    const order = (await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${placed.json().orderId}`, headers: { authorization: token } })).json().order;
    expect(order.shippingInfo).toMatchObject({ code: 'shop', logistics: { pickupDetails: { pickupMethod: 'STORE_PICKUP', address: { city: 'Austin' } }, deliveryTimeSlot: { from: '2026-05-01T10:00:00Z', to: '2026-05-01T12:00:00Z' } } });
  });

  it('refuses an item that sold out since it was added, and a coupon used up meanwhile', async () => {
    const s = await t.createSite();
    const rare = await createProduct(t.app, s, { name: 'Rare', priceData: { price: 10 }, stock: { trackInventory: true, quantity: 1 } });
    const plenty = await createProduct(t.app, s, { name: 'Plenty', priceData: { price: 10 } });
    await t.app.inject({ method: 'POST', url: '/stores/v2/coupons', headers: apiKey(s), payload: { specification: { code: 'ONE', moneyOffAmount: 1, usageLimit: 1 } } });
    const a = await t.visitorToken(s);
    const b = await t.visitorToken(s);
    const first = await newCheckout(a, { lineItems: [catalogLine(rare.id)], couponCode: 'ONE', checkoutInfo: { buyerInfo: { email: 'a@b.co' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } });
    const second = await newCheckout(b, { lineItems: [catalogLine(rare.id), catalogLine(plenty.id)], couponCode: 'ONE', checkoutInfo: { buyerInfo: { email: 'b@b.co' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } });
    expect((await http(a, 'POST', `/${first.id}/create-order`, {})).statusCode).toBe(200);
    const soldOut = await http(b, 'POST', `/${second.id}/create-order`, {});
    expect(soldOut.statusCode).toBe(409);
    expect(soldOut.json().details.applicationError).toMatchObject({ code: 'INSUFFICIENT_INVENTORY', data: { violations: expect.arrayContaining([expect.objectContaining({ code: 'LINE_ITEM_OUT_OF_STOCK', lineItemId: second.lineItems[0].id })]) } });
    await http(b, 'POST', `/${second.id}/remove-line-items`, { lineItemIds: [second.lineItems[0].id] });
    const usedUp = await http(b, 'POST', `/${second.id}/create-order`, {});
    expect(usedUp.json().details.applicationError.code).toBe('USAGE_LIMIT_REACHED');
  });

  it('declines tok_test_decline without making an order, refuses other tokens, and charges tok_test_ok', async () => {
    const token = await t.visitorToken(site);
    const c = await newCheckout(token, { lineItems: [catalogLine(ebook.id)], checkoutInfo: { buyerInfo: { email: 'pay@example.com' } } });
    const declined = await http(token, 'POST', `/${c.id}/create-order-and-charge`, { paymentToken: 'tok_test_decline' });
    expect(declined.statusCode).toBe(402);
    expect(declined.json().details.applicationError).toMatchObject({ code: 'PAYMENT_DECLINED', data: { transactionStatus: 'DECLINED' } });
    expect((await http(token, 'GET', `/${c.id}`)).json().checkout.completed).toBe(false);
    expect((await t.db.query('SELECT order_id FROM orders WHERE site_id = $1 AND checkout_id = $2', [site.siteId, c.id])).length).toBe(0);
    const bogus = await http(token, 'POST', `/${c.id}/create-order-and-charge`, { paymentToken: 'tok_whatever' });
    expect(bogus.json().details.applicationError.code).toBe('INVALID_PAYMENT_TOKEN');
    const missing = await http(token, 'POST', `/${c.id}/create-order-and-charge`, {});
    expect(missing.json().details.validationError.fieldViolations[0]).toMatchObject({ field: 'paymentToken', violatedRule: 'REQUIRED_FIELD' });
    const ok = await http(token, 'POST', `/${c.id}/create-order-and-charge`, { paymentToken: 'tok_test_ok' });
    expect(ok.statusCode).toBe(200);
    const order = (await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${ok.json().orderId}`, headers: { authorization: token } })).json().order;
    expect(order).toMatchObject({ paymentStatus: 'PAID', balanceSummary: { paid: { amount: '9.99' }, balance: { amount: '0.00' } } });
  });

  it('charges an order create-order made when create-order-and-charge follows', async () => {
    const token = await t.visitorToken(site);
    const { orderId, checkoutId } = await placeOrder(t.app, site, token, [catalogLine(ebook.id)]);
    const charged = await http(token, 'POST', `/${checkoutId}/create-order-and-charge`, { paymentToken: 'tok_test_ok' });
    expect(charged.json().orderId).toBe(orderId);
    const order = (await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: { authorization: token } })).json().order;
    expect(order.paymentStatus).toBe('PAID');
    const twice = await http(token, 'POST', `/${checkoutId}/create-order-and-charge`, { paymentToken: 'tok_test_ok' });
    expect(twice.json().orderId).toBe(orderId);
    const after = (await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: { authorization: token } })).json().order;
    expect(after.balanceSummary.paid.amount).toBe('9.99');
  });

  it('refuses a gift card code that cannot be one, and bad input', async () => {
    const token = await t.visitorToken(site);
    expect((await http(token, 'POST', '', { channelType: 'WEB', giftCardCode: 'X' })).json().details.applicationError.code).toBe('GIFT_CARD_CODE_INVALID');
    const bad = await http(token, 'POST', '', { channelType: 'CARRIER_PIGEON' });
    expect(bad.json().details.validationError.fieldViolations[0].field).toBe('channelType');
    const email = await http(token, 'POST', '', { channelType: 'WEB', checkoutInfo: { buyerInfo: { email: 'not-an-email' } } });
    expect(email.json().details.validationError.fieldViolations[0]).toMatchObject({ field: 'checkoutInfo.buyerInfo.email', violatedRule: 'FORMAT' });
  });

  it('records checkout events', async () => {
    await keepEveryEvent(t.db, site.siteId);
    const token = await t.visitorToken(site);
    const { checkoutId } = await placeOrder(t.app, site, token, [catalogLine(ebook.id)]);
    const events = await t.db.query<{ type: string }>('SELECT type FROM outbox_events WHERE site_id = $1 AND entity_id = $2', [site.siteId, checkoutId]);
    expect(events.map((e) => e.type).sort()).toEqual(['checkout.completed', 'checkout.created']);
  });
});

describe('concurrency', () => {
  it('gives one order for parallel create-order calls on one checkout', async () => {
    const token = await t.visitorToken(site);
    const c = await newCheckout(token, { lineItems: [catalogLine(lamp.id, 2)], checkoutInfo: { buyerInfo: { email: 'fast@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } });
    const before = (await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${lamp.id}`, headers: apiKey(site) })).json().product.stock.quantity;
    const results = await Promise.all(Array.from({ length: 10 }, () => http(token, 'POST', `/${c.id}/create-order`, {})));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.json().orderId)).size).toBe(1);
    const rows = await t.db.query('SELECT order_id FROM orders WHERE site_id = $1 AND checkout_id = $2', [site.siteId, c.id]);
    expect(rows).toHaveLength(1);
    const after = (await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${lamp.id}`, headers: apiKey(site) })).json().product.stock.quantity;
    expect(after).toBe(before - 2);
  });

  it('sells the last 5 units to exactly 5 of 20 racing buyers', async () => {
    const s = await t.createSite();
    const hot = await createProduct(t.app, s, { name: 'Hot Item', priceData: { price: 5 }, stock: { trackInventory: true, quantity: 5 } });
    const buyers = await Promise.all(Array.from({ length: 20 }, async () => {
      const token = await t.visitorToken(s);
      return { token, checkout: await newCheckout(token, { lineItems: [catalogLine(hot.id)], checkoutInfo: { buyerInfo: { email: 'race@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } }) };
    }));
    const results = await Promise.all(buyers.map((b) => http(b.token, 'POST', `/${b.checkout.id}/create-order`, {})));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(5);
    for (const r of results.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode).toBe(409);
      expect(r.json().details.applicationError).toMatchObject({ code: 'INSUFFICIENT_INVENTORY', description: expect.stringMatching(/out of stock/i) });
    }
    const count = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE site_id = $1', [s.siteId]);
    expect(count[0].n).toBe(5);
    const numbers = (await t.db.query<{ number: number }>('SELECT number FROM orders WHERE site_id = $1 ORDER BY number', [s.siteId])).map((r) => Number(r.number));
    expect(numbers).toEqual([10001, 10002, 10003, 10004, 10005]);
    const stock = (await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${hot.id}`, headers: apiKey(s) })).json().product.stock;
    expect(stock).toMatchObject({ quantity: 0, inStock: false, inventoryStatus: 'OUT_OF_STOCK' });
  });
});
