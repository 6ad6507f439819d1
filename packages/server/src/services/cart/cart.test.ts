import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { currentCart } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { keepEveryEvent } from '../../test/webhooks.js';
import { countStatements } from '../../test/statements.js';
import { siteContext, withTransaction } from '../../platform/context.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { apiKey, catalogLine, createProduct, memberToken, STORES_APP_ID, type WireProduct } from '../../test/commerce.js';
import type { StoredCommerceSettings } from '../commerce-settings/service.js';

/** The suite runs on a Citus coordinator (.ci/run's Citus pass sets it). */
const CITUS = process.env.BODEGA_CITUS === '1';

const clock = new Date('2026-03-01T12:00:00Z');
let t: TestApp;
let site: TestSite;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let shirt: WireProduct;
let mug: WireProduct;
let limited: WireProduct;

beforeAll(async () => {
  t = await testApp({ now: () => clock });
  site = await t.createSite();
  shirt = await createProduct(t.app, site, {
    name: 'Shirt', priceData: { price: 20 }, weight: 0.5,
    productOptions: [{ name: 'Size', choices: [{ value: 'S' }, { value: 'M' }] }],
    media: { items: [{ image: { url: '/media/demo/tee.svg', width: 800, height: 800 } }] },
  });
  mug = await createProduct(t.app, site, { name: 'Mug', priceData: { price: 8.5 }, discount: { type: 'AMOUNT', value: 0.5 } });
  limited = await createProduct(t.app, site, { name: 'Limited Print', priceData: { price: 100 }, stock: { trackInventory: true, quantity: 3 } });
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

function shopper(s: TestSite = site) {
  return createClient({ modules: { currentCart }, auth: OAuthStrategy({ clientId: s.clientId }) });
}

async function call(token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method, url: `/ecom/v1/carts/current${path}`, headers: { authorization: token, ...headers }, ...(payload !== undefined && { payload: payload as Record<string, unknown> }) });
}

async function coupon(s: TestSite, specification: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/stores/v2/coupons', headers: apiKey(s), payload: { specification } });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json();
}

describe('current cart through the official currentCart module', () => {
  it('adds items, sums the same item on one line and reads the cart back', async () => {
    const client = shopper();
    const first = await client.currentCart.addToCurrentCart({ lineItems: [catalogLine(shirt.id, 2, { options: { Size: 'M' } }), catalogLine(mug.id, 1)] });
    expect(first.cart?.lineItems).toHaveLength(2);
    const second = await client.currentCart.addToCurrentCart({ lineItems: [catalogLine(shirt.id, 3, { variantId: shirt.variants.find((v) => v.choices.Size === 'M')?.id })] });
    const shirtLine = second.cart?.lineItems?.find((l) => l.catalogReference?.catalogItemId === shirt.id);
    expect(shirtLine).toMatchObject({
      quantity: 5,
      productName: { original: 'Shirt' },
      price: { amount: '20.00', formattedAmount: '$20.00' },
      fullPrice: { amount: '20.00' },
      lineItemPrice: { amount: '100.00' },
      availability: { status: 'AVAILABLE' },
      physicalProperties: { weight: 0.5, shippable: true },
      itemType: { preset: 'PHYSICAL' },
      descriptionLines: [{ name: { original: 'Size' }, plainText: { original: 'M' } }],
      url: expect.stringMatching(/\/product-page\/shirt$/),
      image: expect.stringMatching(/^http.*\/media\/demo\/tee\.svg$/),
    });
    const mugLine = second.cart?.lineItems?.find((l) => l.catalogReference?.catalogItemId === mug.id);
    expect(mugLine).toMatchObject({ price: { amount: '8.00' }, fullPrice: { amount: '8.50' } });

    const cart = await client.currentCart.getCurrentCart();
    expect(cart?._id).toBe(second.cart?._id);
    expect(cart?._createdDate).toBeInstanceOf(Date);
    expect(cart?.buyerInfo?.visitorId).toEqual(expect.any(String));
    expect(cart?.currency).toBe('USD');
    expect(cart?.lineItems?.map((l) => l.quantity)).toEqual([5, 1]);
  });

  it('changes quantities, removes lines, applies and removes a coupon, estimates and deletes', async () => {
    await coupon(site, { code: 'TENOFF', name: 'Ten off', percentOffRate: 10 });
    const client = shopper();
    const added = await client.currentCart.addToCurrentCart({ lineItems: [catalogLine(mug.id, 2), catalogLine(shirt.id, 1, { options: { Size: 'S' } })] });
    const [mugLine, shirtLine] = added.cart?.lineItems ?? [];
    const changed = await client.currentCart.updateCurrentCartLineItemQuantity([{ _id: mugLine._id as string, quantity: 4 }]);
    expect(changed.cart?.lineItems?.find((l) => l._id === mugLine._id)?.quantity).toBe(4);

    const removed = await client.currentCart.removeLineItemsFromCurrentCart([shirtLine._id as string]);
    expect(removed.cart?.lineItems?.map((l) => l._id)).toEqual([mugLine._id]);

    const withCoupon = await client.currentCart.updateCurrentCart({ couponCode: 'tenoff' });
    expect(withCoupon.appliedDiscounts).toEqual([{ coupon: { _id: expect.any(String), code: 'tenoff' } }]);

    const estimate = await client.currentCart.estimateCurrentCartTotals({ shippingAddress: { country: 'US', subdivision: 'US-NY' } });
    expect(estimate.priceSummary).toMatchObject({ subtotal: { amount: '32.00' }, discount: { amount: '3.20' }, shipping: { amount: '0.00' }, total: { amount: '28.80' } });
    expect(estimate.appliedDiscounts?.[0]).toMatchObject({ coupon: { code: 'tenoff', amount: { amount: '3.20' } }, discountType: 'GLOBAL' });
    expect(estimate.shippingInfo?.selectedCarrierServiceOption).toMatchObject({ code: 'standard', title: 'Standard delivery' });
    expect(estimate.taxSummary?.calculationDetails?.rateType).toBe('NO_TAX_COLLECTED');
    expect(estimate.cart?._id).toBe(added.cart?._id);

    const without = await client.currentCart.removeCouponFromCurrentCart();
    expect(without.cart?.appliedDiscounts).toEqual([]);

    await client.currentCart.deleteCurrentCart();
    await expect(client.currentCart.getCurrentCart()).rejects.toMatchObject({ details: { applicationError: { code: 'OWNED_CART_NOT_FOUND' } } });
  });

  it('pictures each line with its chosen colour, as the product page does, and the main picture otherwise', async () => {
    const scarf = await createProduct(t.app, site, {
      name: 'Scarf', priceData: { price: 30 },
      productOptions: [{ name: 'Length', choices: [{ value: 'Short' }, { value: 'Long' }] }, { name: 'Color', optionType: 'color', choices: [{ value: 'Sage', description: '#9caf88' }, { value: 'Navy', description: '#1f2a44' }] }],
      media: { items: [
        { image: { url: '/media/demo/scarf-sage.svg', width: 800, height: 800, altText: 'Scarf in sage' } },
        { image: { url: '/media/demo/scarf-navy.svg', width: 800, height: 800, altText: 'Scarf in navy, long' } },
      ] },
    });
    const client = shopper();
    const added = await client.currentCart.addToCurrentCart({ lineItems: [
      catalogLine(scarf.id, 1, { options: { Length: 'Short', Color: 'Navy' } }),
      catalogLine(scarf.id, 1, { options: { Length: 'Long', Color: 'Sage' } }),
    ] });
    const pictures = added.cart?.lineItems?.map((l) => String(l.image).split('/').pop());
    // Long Sage: the colour decides before the length, though "long" is in the navy picture's text.
    expect(pictures).toEqual(['scarf-navy.svg', 'scarf-sage.svg']);
  });

  it('answers OWNED_CART_NOT_FOUND before the first item', async () => {
    await expect(shopper().currentCart.getCurrentCart()).rejects.toMatchObject({ status: 404, details: { applicationError: { code: 'OWNED_CART_NOT_FOUND' } } });
  });

  it('refuses bad items with application errors', async () => {
    const client = shopper();
    const hidden = await createProduct(t.app, site, { name: 'Hidden', priceData: { price: 1 }, visible: false });
    const soldOut = await createProduct(t.app, site, { name: 'Sold out', priceData: { price: 1 }, stock: { trackInventory: true, quantity: 0 } });
    const cases: [unknown, string][] = [
      [catalogLine('00000000-0000-0000-0000-00000000beef'), 'CATALOG_ITEM_NOT_FOUND'],
      [catalogLine(hidden.id), 'CATALOG_ITEM_NOT_FOUND'],
      [catalogLine(soldOut.id), 'ITEM_OUT_OF_STOCK'],
      [catalogLine(shirt.id), 'OPTIONS_REQUIRED'],
      [catalogLine(shirt.id, 1, { options: { Size: 'XXL' } }), 'VARIANT_NOT_FOUND'],
      [catalogLine(shirt.id, 1, { variantId: 'nope' }), 'VARIANT_NOT_FOUND'],
      [{ catalogReference: { appId: 'another-app', catalogItemId: mug.id }, quantity: 1 }, 'CATALOG_APP_NOT_SUPPORTED'],
    ];
    for (const [line, code] of cases) {
      await expect(client.currentCart.addToCurrentCart({ lineItems: [line as ReturnType<typeof catalogLine>] }), code).rejects.toMatchObject({ details: { applicationError: { code } } });
    }
  });
});

describe('current cart over HTTP', () => {
  it('serves the custom-host paths', async () => {
    const token = await t.visitorToken(site);
    const res = await t.app.inject({ method: 'POST', url: '/_api/ecom-cart/v1/carts/current/add-to-cart', headers: { authorization: token }, payload: { lineItems: [catalogLine(mug.id)] } });
    expect(res.statusCode).toBe(200);
    const get = await t.app.inject({ method: 'GET', url: '/_api/ecom-cart/v1/carts/current', headers: { authorization: token } });
    expect(get.json().cart.id).toBe(res.json().cart.id);
  });

  it.each([
    [{ lineItems: [] }, 'lineItems', 'MIN_SIZE'],
    [{ lineItems: [{ ...catalogLine('x'), quantity: 0 }] }, 'lineItems[0].quantity', 'MIN'],
    [{ lineItems: [{ ...catalogLine('x'), quantity: 100_001 }] }, 'lineItems[0].quantity', 'MAX'],
    [{ lineItems: [{ quantity: 1 }] }, 'lineItems[0].catalogReference', 'REQUIRED_FIELD'],
    [{ lineItems: [{ ...catalogLine('x'), quantity: 1.5 }] }, 'lineItems[0].quantity', 'VALIDATION'],
  ])('refuses %j with a field violation', async (payload, field, rule) => {
    const res = await call(await t.visitorToken(site), 'POST', '/add-to-cart', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.validationError.fieldViolations).toEqual(expect.arrayContaining([expect.objectContaining({ field, violatedRule: rule })]));
  });

  it('keeps a line at 100,000 units at most', async () => {
    const token = await t.visitorToken(site);
    expect((await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(mug.id, 99_999)] })).statusCode).toBe(200);
    expect((await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(mug.id, 1)] })).json().cart.lineItems[0].quantity).toBe(100_000);
    const over = await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(mug.id, 1)] });
    expect(over.statusCode).toBe(400);
    expect(over.json().details.validationError.fieldViolations[0]).toMatchObject({ violatedRule: 'MAX', data: { threshold: 100_000 } });
    expect((await call(token, 'GET', '')).json().cart.lineItems[0].quantity).toBe(100_000);
  });

  it('shows availability as stock changes and the product disappears', async () => {
    const token = await t.visitorToken(site);
    const added = (await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(limited.id, 2)] })).json().cart;
    expect(added.lineItems[0].availability).toEqual({ status: 'AVAILABLE', quantityAvailable: 3 });
    await call(token, 'POST', '/update-line-items-quantity', { lineItems: [{ id: added.lineItems[0].id, quantity: 5 }] });
    expect((await call(token, 'GET', '')).json().cart.lineItems[0].availability).toEqual({ status: 'PARTIALLY_AVAILABLE', quantityAvailable: 3 });
    const estimate = (await call(token, 'POST', '/estimate-totals', {})).json();
    expect(estimate.violations).toEqual(expect.arrayContaining([expect.objectContaining({ severity: 'ERROR', target: { lineItem: expect.objectContaining({ id: added.lineItems[0].id }) } })]));

    const other = await createProduct(t.app, site, { name: 'Ephemeral', priceData: { price: 2 } });
    await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(other.id)] });
    await t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${other.id}`, headers: apiKey(site), payload: { product: { visible: false } } });
    const lines = (await call(token, 'GET', '')).json().cart.lineItems;
    expect(lines.find((l: { catalogReference: { catalogItemId: string } }) => l.catalogReference.catalogItemId === other.id).availability.status).toBe('NOT_FOUND');
  });

  it('answers a read again unchanged, and anew once the cart, a product or the site settings change', async () => {
    const token = await t.visitorToken(site);
    const item = await createProduct(t.app, site, { name: 'Kept', priceData: { price: 3 } });
    await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(item.id)] });
    const first = (await call(token, 'GET', '')).body;
    expect((await call(token, 'GET', '')).body).toBe(first);

    await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(item.id)] });
    const added = (await call(token, 'GET', '')).json().cart;
    expect(added.lineItems[0].quantity).toBe(2);

    const priced = await t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${item.id}`, headers: apiKey(site), payload: { product: { priceData: { price: 4 } } } });
    expect(priced.statusCode, priced.body).toBe(200);
    expect((await call(token, 'GET', '')).json().cart.lineItems[0].price.amount).toBe('4.00');

    const settings = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers: apiKey(site), payload: { settings: { weightUnit: 'LB' } } });
    expect(settings.statusCode, settings.body).toBe(200);
    expect((await call(token, 'GET', '')).json().cart.weightUnit).toBe('LB');
  });

  it('reads a product another server changed at once, and no product a second later when none changed', async () => {
    const token = await t.visitorToken(site);
    const item = await createProduct(t.app, site, { name: 'Elsewhere', priceData: { price: 5 } });
    await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(item.id)] });
    expect((await call(token, 'GET', '')).json().cart.lineItems[0].price.amount).toBe('5.00');
    // Another server's write: this server's cache hears nothing of it, the cart's read sees its version.
    await t.db.query('UPDATE products SET price_minor = 700 WHERE site_id = $1 AND product_id = $2', [site.siteId, item.id]);
    expect((await call(token, 'GET', '')).json().cart.lineItems[0].price.amount).toBe('7.00');
    const statements = countStatements(t.db);
    await call(token, 'GET', '');
    const warm = statements.count();
    // Past the one-second reuse of unversioned reads (the site's own cache still holds): the products are not read again.
    clock.setTime(clock.getTime() + 1500);
    statements.reset();
    expect((await call(token, 'GET', '')).json().cart.lineItems[0].price.amount).toBe('7.00');
    expect(statements.count()).toBe(warm);
  });

  it('refuses unknown line ids', async () => {
    const token = await t.visitorToken(site);
    await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(mug.id)] });
    for (const [path, payload] of [['/remove-line-items', { lineItemIds: ['nope'] }], ['/update-line-items-quantity', { lineItems: [{ id: 'nope', quantity: 1 }] }]] as const) {
      const res = await call(token, 'POST', path, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().details.applicationError.code).toBe('LINE_ITEM_NOT_FOUND');
    }
  });

  it('removes a line when its quantity is set to 0', async () => {
    const token = await t.visitorToken(site);
    const cart = (await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(mug.id), catalogLine(limited.id)] })).json().cart;
    const after = (await call(token, 'POST', '/update-line-items-quantity', { lineItems: [{ id: cart.lineItems[0].id, quantity: 0 }] })).json().cart;
    expect(after.lineItems.map((l: { id: string }) => l.id)).toEqual([cart.lineItems[1].id]);
  });

  it('refuses a coupon the cart cannot use, naming the reason', async () => {
    const s = await t.createSite();
    const cheap = await createProduct(t.app, s, { name: 'Pin', priceData: { price: 2 } });
    const other = await createProduct(t.app, s, { name: 'Patch', priceData: { price: 2 } });
    await coupon(s, { code: 'LATER', percentOffRate: 5, startTime: '2026-04-01T00:00:00Z' });
    await coupon(s, { code: 'OLD', percentOffRate: 5, expirationTime: '2026-02-01T00:00:00Z' });
    await coupon(s, { code: 'BIG', moneyOffAmount: 5, minimumSubtotal: 50 });
    await coupon(s, { code: 'ONLYPATCH', percentOffRate: 5, scope: { namespace: 'stores', group: { name: 'product', entityId: other.id } } });
    await coupon(s, { code: 'OFF', percentOffRate: 5, active: false });
    const token = await t.visitorToken(s);
    await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(cheap.id)] });
    for (const [code, reason] of [['NOPE', 'NOT_FOUND'], ['LATER', 'NOT_YET_VALID'], ['OLD', 'EXPIRED'], ['BIG', 'MINIMUM_NOT_MET'], ['ONLYPATCH', 'NOT_APPLICABLE_TO_ITEMS'], ['OFF', 'NOT_FOUND']]) {
      const res = await call(token, 'PATCH', '', { couponCode: code });
      expect(res.statusCode, code).toBe(400);
      expect(res.json().details.applicationError).toMatchObject({ code: reason, data: { couponCode: code } });
    }
    expect((await call(token, 'GET', '')).json().cart.appliedDiscounts).toEqual([]);
  });

  it('keeps the cart as it was when a coupon sent with new lines is refused', async () => {
    const s = await t.createSite();
    const pin = await createProduct(t.app, s, { name: 'Pin', priceData: { price: 2 } });
    const badge = await createProduct(t.app, s, { name: 'Badge', priceData: { price: 3 } });
    await coupon(s, { code: 'BIG', moneyOffAmount: 5, minimumSubtotal: 50 });
    await coupon(s, { code: 'TEN', percentOffRate: 10 });
    const token = await t.visitorToken(s);
    // No cart yet: the refused call must not create one.
    const first = await call(token, 'PATCH', '', { lineItems: [catalogLine(pin.id, 2)], couponCode: 'BIG' });
    expect(first.statusCode).toBe(400);
    expect(first.json().details.applicationError).toMatchObject({ code: 'MINIMUM_NOT_MET' });
    expect((await call(token, 'GET', '')).statusCode).toBe(404);
    await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(pin.id, 1)] });
    const before = (await call(token, 'GET', '')).json().cart;
    const refused = await call(token, 'PATCH', '', { lineItems: [catalogLine(pin.id, 4), catalogLine(badge.id, 1)], couponCode: 'BIG' });
    expect(refused.statusCode).toBe(400);
    const after = (await call(token, 'GET', '')).json().cart;
    expect(after.lineItems.map((l: { quantity: number }) => l.quantity)).toEqual([1]);
    expect(after.updatedDate).toBe(before.updatedDate);
    expect(after.appliedDiscounts).toEqual([]);
    // The same call with a usable coupon adds the lines and applies it together.
    const accepted = await call(token, 'PATCH', '', { lineItems: [catalogLine(badge.id, 1)], couponCode: 'TEN' });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().cart.lineItems).toHaveLength(2);
    expect(accepted.json().cart.appliedDiscounts).toEqual([{ coupon: { id: expect.any(String), code: 'TEN' } }]);
  });

  it('counts coupon uses against the limit', async () => {
    const s = await t.createSite();
    const pin = await createProduct(t.app, s, { name: 'Pin', priceData: { price: 2 } });
    const created = await coupon(s, { code: 'ONCE', moneyOffAmount: 1, usageLimit: 1 });
    expect(created.coupon.specification).toMatchObject({ code: 'ONCE', moneyOffAmount: 1, usageLimit: 1 });
    const token = await t.visitorToken(s);
    await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(pin.id)] });
    expect((await call(token, 'PATCH', '', { couponCode: 'ONCE' })).statusCode).toBe(200);
    const list = await t.app.inject({ method: 'POST', url: '/stores/v2/coupons/query', headers: apiKey(s), payload: {} });
    expect(list.json()).toMatchObject({ coupons: [{ id: created.id, numberOfUsages: 0 }], metadata: { total: 1 } });
    const dup = await t.app.inject({ method: 'POST', url: '/stores/v2/coupons', headers: apiKey(s), payload: { specification: { code: 'once', percentOffRate: 1 } } });
    expect(dup.json().details.applicationError.code).toBe('COUPON_CODE_ALREADY_EXISTS');
    const both = await t.app.inject({ method: 'POST', url: '/stores/v2/coupons', headers: apiKey(s), payload: { specification: { code: 'X', percentOffRate: 1, moneyOffAmount: 1 } } });
    expect(both.statusCode).toBe(400);
    const visitor = await t.app.inject({ method: 'POST', url: '/stores/v2/coupons/query', headers: { authorization: token }, payload: {} });
    expect(visitor.statusCode).toBe(403);
  });

  it('lets only an API key add custom line items and merchant discounts, for itself or a named buyer', async () => {
    const visitorToken = await t.visitorToken(site);
    const custom = { productName: { original: 'Gift wrap' }, price: '3.50', quantity: 2 };
    const refused = await call(visitorToken, 'POST', '/add-to-cart', { customLineItems: [custom] });
    expect(refused.statusCode).toBe(403);

    const app = await call(site.apiKey, 'POST', '/add-to-cart', { customLineItems: [custom], lineItems: [catalogLine(mug.id)] }, { 'wix-site-id': site.siteId });
    expect(app.statusCode).toBe(200);
    const line = app.json().cart.lineItems.find((l: { customLineItem: boolean }) => l.customLineItem);
    expect(line).toMatchObject({ productName: { original: 'Gift wrap' }, price: { amount: '3.50' }, quantity: 2, itemType: { custom: 'CUSTOM_AMOUNT_ITEM' } });

    const discounted = await call(site.apiKey, 'PATCH', '', { merchantDiscounts: [{ amount: '2.00' }] }, { 'wix-site-id': site.siteId });
    expect(discounted.json().cart.appliedDiscounts).toEqual([{ merchantDiscount: { amount: expect.objectContaining({ amount: '2.00' }) } }]);
    const estimate = (await call(site.apiKey, 'POST', '/estimate-totals', { calculateShipping: false }, { 'wix-site-id': site.siteId })).json();
    expect(estimate.priceSummary).toMatchObject({ subtotal: { amount: '15.00' }, discount: { amount: '2.00' }, total: { amount: '13.00' } });

    const visitorDiscount = await call(visitorToken, 'PATCH', '', { merchantDiscounts: [{ amount: '1.00' }] });
    expect(visitorDiscount.statusCode).toBe(403);

    // The API key acting for a visitor: their cart, found from the visitor id.
    const who = (await call(visitorToken, 'POST', '/add-to-cart', { lineItems: [catalogLine(mug.id)] })).json().cart.buyerInfo.visitorId;
    const forVisitor = await call(site.apiKey, 'POST', '/add-to-cart', { customLineItems: [custom] }, { 'wix-site-id': site.siteId, 'bodega-buyer': `visitor:${who}` });
    expect(forVisitor.json().cart.buyerInfo).toEqual({ visitorId: who });
    expect((await call(visitorToken, 'GET', '')).json().cart.lineItems).toHaveLength(2);
    const badHeader = await call(site.apiKey, 'GET', '', undefined, { 'wix-site-id': site.siteId, 'bodega-buyer': 'somebody' });
    expect(badHeader.statusCode).toBe(400);
  });

  it('prices shipping regions, pickup and tax from the site settings, honouring the flags', async () => {
    const s = await t.createSite();
    const settings: StoredCommerceSettings = {
      shippingRegions: [{
        id: 'us', name: 'United States', country: 'US',
        rules: [
          { code: 'std', title: 'Standard', rate: '5.00', type: 'BY_TOTAL_PRICE', operator: 'LT', threshold: '50' },
          { code: 'std', title: 'Standard', rate: '0', type: 'BY_TOTAL_PRICE', operator: 'GTE', threshold: '50' },
          { code: 'exp', title: 'Express', rate: '15.00', type: 'BY_TOTAL_WEIGHT', operator: 'LTE', threshold: '10' },
        ],
      }],
      pickupOptions: [{ code: 'shop', title: 'Pick up at the shop', cost: '0' }],
      tax: { rates: [{ country: 'US', subdivision: 'US-CA', rate: '7.25', name: 'California' }] },
    };
    const put = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers: apiKey(s), payload: { settings } });
    expect(put.statusCode).toBe(200);
    const bad = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers: apiKey(s), payload: { settings: { pickupOptions: [{ code: 'x', title: 'x', cost: '1.001' }] } } });
    expect(bad.json().details.validationError.fieldViolations[0]).toMatchObject({ field: 'pickupOptions[0].cost', violatedRule: 'DECIMAL_MAX_SCALE' });

    const print = await createProduct(t.app, s, { name: 'Print', priceData: { price: 30 }, weight: 1 });
    const token = await t.visitorToken(s);
    await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(print.id)] });
    const ca = (await call(token, 'POST', '/estimate-totals', { shippingAddress: { country: 'US', subdivision: 'US-CA' } })).json();
    expect(ca.priceSummary).toMatchObject({ subtotal: { amount: '30.00' }, shipping: { amount: '5.00' }, tax: { amount: '2.18' }, total: { amount: '37.18' } });
    expect(ca.taxSummary.calculationDetails.rateType).toBe('MANUAL_RATE');
    expect(ca.shippingInfo.carrierServiceOptions[0].shippingOptions.map((o: { code: string }) => o.code)).toEqual(['std', 'exp', 'shop']);

    const express = (await call(token, 'POST', '/estimate-totals', { shippingAddress: { country: 'US', subdivision: 'US-CA' }, selectedShippingOption: { code: 'exp' }, calculateTax: false })).json();
    expect(express.priceSummary).toMatchObject({ shipping: { amount: '15.00' }, tax: { amount: '0.00' }, total: { amount: '45.00' } });
    expect(express.taxSummary.calculationDetails.rateType).toBe('NO_TAX_COLLECTED');

    const noShipping = (await call(token, 'POST', '/estimate-totals', { calculateShipping: false })).json();
    expect(noShipping.priceSummary.shipping.amount).toBe('0.00');
    expect(noShipping.shippingInfo).toEqual({ carrierServiceOptions: [] });

    const abroad = (await call(token, 'POST', '/estimate-totals', { shippingAddress: { country: 'FR' } })).json();
    expect(abroad.shippingInfo.selectedCarrierServiceOption).toMatchObject({ code: 'shop', logistics: { pickupDetails: { pickupMethod: 'STORE_PICKUP' } } });
  });

  it('records cart events in the outbox', async () => {
    const s = await t.createSite();
    await keepEveryEvent(t.db, s.siteId);
    const p = await createProduct(t.app, s, { name: 'Sticker', priceData: { price: 1 } });
    const token = await t.visitorToken(s);
    const cart = (await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(p.id)] })).json().cart;
    await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(p.id)] });
    await call(token, 'DELETE', '');
    const events = await t.db.query<{ type: string }>(`SELECT type FROM outbox_events WHERE site_id = $1 AND entity_id = $2 ORDER BY created_at, type`, [s.siteId, cart.id]);
    expect(events.map((e) => e.type).sort()).toEqual(['cart.created', 'cart.deleted', 'cart.updated']);
  });

  it('keeps carts apart by site and by buyer', async () => {
    const other = await t.createSite();
    const token = await t.visitorToken(site);
    await call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(mug.id)] });
    const elsewhere = await call(await t.visitorToken(other), 'GET', '');
    expect(elsewhere.statusCode).toBe(404);
    const member = await memberToken(t.app, site);
    expect((await call(member.token, 'GET', '')).statusCode).toBe(404);
  });
});

describe('concurrency', () => {
  it('counts every unit of 50 parallel adds to one cart', async () => {
    const s = await t.createSite();
    const p = await createProduct(t.app, s, { name: 'Bead', priceData: { price: 0.1 } });
    const token = await t.visitorToken(s);
    const results = await Promise.all(Array.from({ length: 50 }, () => call(token, 'POST', '/add-to-cart', { lineItems: [catalogLine(p.id, 2)] })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    const cart = (await call(token, 'GET', '')).json().cart;
    expect(cart.lineItems).toHaveLength(1);
    expect(cart.lineItems[0].quantity).toBe(100);
  });
});

describe('merge at sign-in', () => {
  async function setup() {
    const s = await t.createSite();
    await keepEveryEvent(t.db, s.siteId);
    const a = await createProduct(t.app, s, { name: 'A', priceData: { price: 1 } });
    const b = await createProduct(t.app, s, { name: 'B', priceData: { price: 1 } });
    const c = await createProduct(t.app, s, { name: 'C', priceData: { price: 1 } });
    const visitor = await t.visitorToken(s);
    const visitorId = (await call(visitor, 'POST', '/add-to-cart', { lineItems: [catalogLine(a.id, 2), catalogLine(b.id, 1)] })).json().cart.buyerInfo.visitorId as string;
    const member = await memberToken(t.app, s);
    return { s, a, b, c, visitor, visitorId, member };
  }
  const quantities = (cart: { lineItems: { quantity: number; catalogReference: { catalogItemId: string } }[] }) =>
    Object.fromEntries(cart.lineItems.map((l) => [l.catalogReference.catalogItemId, l.quantity]));

  it('gives the member the visitor\'s cart when they have none', async () => {
    const { s, a, b, visitor, visitorId, member } = await setup();
    await withTransaction(siteContext(t.db, s.siteId, () => new Date()), (tx) => t.app.services.commerce.cart.mergeVisitorCart(tx, visitorId, member.memberId));
    const cart = (await call(member.token, 'GET', '')).json().cart;
    expect(quantities(cart)).toEqual({ [a.id]: 2, [b.id]: 1 });
    expect(cart.buyerInfo).toEqual({ memberId: member.memberId });
    expect((await call(visitor, 'GET', '')).statusCode).toBe(404);
  });

  it('sums the visitor\'s lines into the member\'s cart through the sign-in hand-off', async () => {
    const { s, a, b, c, visitor, visitorId, member } = await setup();
    await call(member.token, 'POST', '/add-to-cart', { lineItems: [catalogLine(a.id, 5), catalogLine(c.id, 1)] });
    await t.app.services.identity.handOverVisitor(t.app.services.sites.contextFor(s.siteId), visitorId, member.memberId);
    const cart = (await call(member.token, 'GET', '')).json().cart;
    expect(quantities(cart)).toEqual({ [a.id]: 7, [b.id]: 1, [c.id]: 1 });
    expect((await call(visitor, 'GET', '')).statusCode).toBe(404);
    const events = await t.db.query<{ type: string }>(`SELECT type FROM outbox_events WHERE site_id = $1 AND type LIKE 'cart.%' ORDER BY created_at`, [s.siteId]);
    expect(events.map((e) => e.type)).toContain('cart.deleted');
  });

  it('loses no line when the member adds items while the merge runs', async () => {
    const { s, a, b, visitorId, member } = await setup();
    const adds = Array.from({ length: 10 }, () => call(member.token, 'POST', '/add-to-cart', { lineItems: [catalogLine(a.id, 1), catalogLine(b.id, 1)] }));
    const merge = withTransaction(siteContext(t.db, s.siteId, () => new Date()), (tx) => t.app.services.commerce.cart.mergeVisitorCart(tx, visitorId, member.memberId));
    const results = await Promise.all([...adds, merge]);
    expect(results.slice(0, 10).map((r) => (r as { statusCode: number }).statusCode)).toEqual(Array(10).fill(200));
    const cart = (await call(member.token, 'GET', '')).json().cart;
    expect(quantities(cart)).toEqual({ [a.id]: 12, [b.id]: 11 });
  });

  it('does nothing for a visitor without a cart', async () => {
    const { s, member } = await setup();
    await withTransaction(siteContext(t.db, s.siteId, () => new Date()), (tx) => t.app.services.commerce.cart.mergeVisitorCart(tx, 'no-such-visitor', member.memberId));
    expect((await call(member.token, 'GET', '')).statusCode).toBe(404);
  });
});

// Needs two connections at once: on PGlite the open transaction holds the only one.
describe.runIf(Boolean(process.env.DATABASE_URL))('a change that waited on the cart row for another add (PostgreSQL)', () => {
  type WireCart = { lineItems: { quantity: number; catalogReference: { catalogItemId: string } }[] };
  const products = (cart: WireCart) => cart.lineItems.map((l) => l.catalogReference.catalogItemId);

  /**
   * Adds `b` in an open transaction on one connection, starts `request` on another, waits until
   * PostgreSQL reports it blocked by that transaction, then commits the add.
   */
  async function whileAnAddHoldsTheCart(s: TestSite, visitorId: string, b: WireProduct, request: () => Promise<{ json(): unknown }>) {
    let blocked: Promise<{ json(): unknown }> | undefined;
    const held = await withTransaction(siteContext(t.db, s.siteId, () => clock), async (tx) => {
      // On Citus the wait happens on a worker: its lock-wait view names backends by global pid.
      const [{ pid }] = await tx.db.query<{ pid: number }>(CITUS ? 'SELECT citus_backend_gpid() AS pid' : 'SELECT pg_backend_pid() AS pid');
      const ctx = { ...tx, caller: { kind: 'ANONYMOUS_VISITOR' as const, siteId: s.siteId, subjectId: visitorId }, requestId: 'concurrent-add' };
      const view = await t.app.services.commerce.cart.addToCurrentCart(ctx, { kind: 'visitor', id: visitorId }, {
        lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: b.id }, quantity: 1 }], customLineItems: [],
      });
      let settled = false;
      blocked = request().finally(() => { settled = true; });
      const deadline = Date.now() + 10_000;
      for (;;) {
        const [{ n }] = await t.db.query<{ n: number }>(CITUS
          ? 'SELECT count(*)::int AS n FROM citus_lock_waits WHERE blocking_gpid = $1'
          : 'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid]);
        if (n > 0) break;
        if (settled) throw new Error(`the second request did not wait for the cart row: ${JSON.stringify((await blocked).json())}`);
        if (Date.now() > deadline) throw new Error('the second request never waited for the cart row');
      }
      return view;
    });
    if (!blocked) throw new Error('no request started');
    return { held: held.cart.lines.map((l) => l.catalogReference?.catalogItemId), answer: (await blocked).json() as { cart: WireCart } };
  }

  async function setup() {
    const s = await t.createSite();
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((name) => createProduct(t.app, s, { name, priceData: { price: 1 } })));
    const visitor = await t.visitorToken(s);
    const first = (await call(visitor, 'POST', '/add-to-cart', { lineItems: [catalogLine(a.id, 1)] })).json();
    return { s, a, b, c, visitor, visitorId: first.cart.buyerInfo.visitorId as string, lineA: first.cart.lineItems[0].id as string };
  }

  it('add-to-cart answers the line the other add committed while it waited', async () => {
    const { s, a, b, c, visitor, visitorId } = await setup();
    const { held, answer } = await whileAnAddHoldsTheCart(s, visitorId, b, () => call(visitor, 'POST', '/add-to-cart', { lineItems: [catalogLine(c.id, 2)] }));
    expect(held).toEqual([a.id, b.id]);
    expect(products(answer.cart)).toEqual([a.id, b.id, c.id]);
    expect(products((await call(visitor, 'GET', '')).json().cart)).toEqual([a.id, b.id, c.id]);
  });

  it('add-to-cart of the same item answers the summed quantity and the other line', async () => {
    const { s, a, b, visitor, visitorId } = await setup();
    const { answer } = await whileAnAddHoldsTheCart(s, visitorId, b, () => call(visitor, 'POST', '/add-to-cart', { lineItems: [catalogLine(a.id, 2)] }));
    expect(answer.cart.lineItems.map((l) => [l.catalogReference.catalogItemId, l.quantity])).toEqual([[a.id, 3], [b.id, 1]]);
  });

  it('add-to-cart of the item the other add also added answers both quantities on one line', async () => {
    const { s, a, visitor, visitorId } = await setup();
    const { answer } = await whileAnAddHoldsTheCart(s, visitorId, a, () => call(visitor, 'POST', '/add-to-cart', { lineItems: [catalogLine(a.id, 2)] }));
    expect(answer.cart.lineItems.map((l) => [l.catalogReference.catalogItemId, l.quantity])).toEqual([[a.id, 4]]);
    expect((await call(visitor, 'GET', '')).json().cart.lineItems.map((l: { quantity: number }) => l.quantity)).toEqual([4]);
  });

  it('changing a quantity and removing a line answer the line the other add committed', async () => {
    const { s, a, b, c, visitor, visitorId, lineA } = await setup();
    const changed = await whileAnAddHoldsTheCart(s, visitorId, b, () => call(visitor, 'POST', '/update-line-items-quantity', { lineItems: [{ id: lineA, quantity: 4 }] }));
    expect(changed.answer.cart.lineItems.map((l) => [l.catalogReference.catalogItemId, l.quantity])).toEqual([[a.id, 4], [b.id, 1]]);
    const removed = await whileAnAddHoldsTheCart(s, visitorId, c, () => call(visitor, 'POST', '/remove-line-items', { lineItemIds: [lineA] }));
    expect(products(removed.answer.cart)).toEqual([b.id, c.id]);
  });
});

describe('the app id of line items', () => {
  it('is the Wix Stores app id', () => {
    expect(STORES_APP_ID).toBe('215238eb-22a5-4c36-9e7b-e7c08025e04e');
  });
});
