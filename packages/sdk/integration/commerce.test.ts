/**
 * `currentCart`, `checkout` and `orders` of @bodega/sdk against a real server: the nine current
 * cart calls with validation errors named after the SDK arguments, a checkout from line items to
 * an order, the buyer's reads, and the merchant's payment collection, refund and cancel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout, currentCart, orders, products, type Address, type LineItemInput } from '@bodega/sdk';
import { adminClient, rejection, startServer, visitorClient, type Server, type TestSite } from './support.js';

const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const NEW_YORK: Address = { country: 'US', subdivision: 'US-NY', city: 'New York', addressLine: '1 Main St', postalCode: '10001' };

let server: Server;
let site: TestSite;
let merchant: ReturnType<typeof merchantOf>;
let mug = '';
let beans = '';

const merchantOf = (s: TestSite) => adminClient(server.origin, s, { products, orders, checkout });
const shopperOf = (s: TestSite) => visitorClient(server.origin, s, { currentCart, checkout, orders, products });
const line = (productId: string, quantity = 1): LineItemInput => ({ catalogReference: { appId: STORES_APP_ID, catalogItemId: productId }, quantity });

beforeAll(async () => {
  server = await startServer();
  site = await server.createSite();
  merchant = merchantOf(site);
  mug = (await merchant.products.createProduct({ name: 'Stoneware Mug', productType: 'physical', priceData: { price: 14 }, stock: { trackInventory: true, quantity: 10 } })).product?._id ?? '';
  beans = (await merchant.products.createProduct({ name: 'House Beans', productType: 'physical', priceData: { price: 11.5 } })).product?._id ?? '';
  // Bodega's coupon call, through fetchWithAuth (the API key's headers added).
  const coupon = await merchant.fetchWithAuth(`${server.origin}/_api/bodega/v1/coupons`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ specification: { code: 'TENOFF', name: 'Ten off', percentOffRate: 10 } }),
  });
  expect(coupon.status).toBe(200);
});
afterAll(() => server.close());

describe('current cart', () => {
  it('runs all nine calls', async () => {
    const shopper = shopperOf(site);
    const none = await rejection(shopper.currentCart.getCurrentCart());
    expect([none.status, none.details.applicationError?.code]).toEqual([404, 'OWNED_CART_NOT_FOUND']);

    const added = await shopper.currentCart.addToCurrentCart({ lineItems: [line(mug, 2), line(beans)] });
    const cart = added.cart;
    expect(cart?._id).toEqual(expect.any(String));
    expect(cart?._createdDate).toBeInstanceOf(Date);
    expect(cart?.lineItems.map((l) => [l.productName?.original, l.quantity, l.price?.amount])).toEqual([
      ['Stoneware Mug', 2, '14.00'],
      ['House Beans', 1, '11.50'],
    ]);
    expect(cart?.lineItems[0].url).toEqual(expect.objectContaining({ relativePath: expect.any(String) }));
    const [mugLine, beansLine] = cart?.lineItems ?? [];

    const got = await shopper.currentCart.getCurrentCart();
    expect(got._id).toBe(cart?._id);

    const quantities = await shopper.currentCart.updateCurrentCartLineItemQuantity([{ _id: mugLine._id ?? '', quantity: 3 }]);
    expect(quantities.cart?.lineItems.map((l) => l.quantity)).toEqual([3, 1]);

    const withCoupon = await shopper.currentCart.updateCurrentCart({ couponCode: 'tenoff', cartInfo: { buyerNote: 'Ring twice' } });
    expect(withCoupon.appliedDiscounts?.map((d) => d.coupon?.code)).toEqual(['tenoff']);
    expect(withCoupon.buyerNote).toBe('Ring twice');
    const estimate = await shopper.currentCart.estimateCurrentCartTotals({ shippingAddress: { country: 'US', subdivision: 'US-NY' } });
    expect(estimate.priceSummary?.subtotal?.amount).toBe('53.50');
    expect(estimate.appliedDiscounts?.[0]?.coupon?.amount?.amount).toBe('5.35');
    const withoutCoupon = await shopper.currentCart.removeCouponFromCurrentCart();
    expect(withoutCoupon.cart?.appliedDiscounts ?? []).toEqual([]);

    const removed = await shopper.currentCart.removeLineItemsFromCurrentCart([beansLine._id ?? '']);
    expect(removed.cart?.lineItems.map((l) => l.productName?.original)).toEqual(['Stoneware Mug']);

    const { checkoutId } = await shopper.currentCart.createCheckoutFromCurrentCart({
      channelType: 'WEB', email: 'cart@example.com', shippingAddress: NEW_YORK,
    });
    expect(checkoutId).toEqual(expect.any(String));
    const byCart = await shopper.checkout.getCheckoutByCartId(cart?._id ?? '');
    expect(byCart.checkout?._id).toBe(checkoutId);
    // Addresses keep their REST names both ways.
    expect(byCart.checkout?.shippingInfo).toMatchObject({ shippingDestination: { address: { addressLine: '1 Main St', city: 'New York' } } });
    expect(byCart.checkout?.buyerInfo?.email).toBe('cart@example.com');

    await shopper.currentCart.deleteCurrentCart();
    expect((await rejection(shopper.currentCart.getCurrentCart())).status).toBe(404);
  });

  it('names the SDK arguments in validation errors', async () => {
    const shopper = shopperOf(site);
    const empty = await rejection(shopper.currentCart.addToCurrentCart({ lineItems: [] }));
    expect(empty.status).toBe(400);
    expect(empty.message).toBe('INVALID_ARGUMENT: "options.lineItems" must not be empty');
    expect(empty.details.validationError?.fieldViolations.map((v) => v.field)).toEqual(['options.lineItems']);
    expect(empty.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const badQuantity = await rejection(shopper.currentCart.addToCurrentCart({ lineItems: [line(mug, 0)] }));
    expect(badQuantity.message).toMatch(/^INVALID_ARGUMENT: "options\.lineItems\[0\]\.quantity" /);

    await shopper.currentCart.addToCurrentCart({ lineItems: [line(mug)] });
    const badLine = await rejection(shopper.currentCart.updateCurrentCartLineItemQuantity([{ _id: '', quantity: 2 }]));
    expect(badLine.message).toMatch(/^INVALID_ARGUMENT: "lineItems\[0\]\._id" /);

    const coupon = await rejection(shopper.currentCart.updateCurrentCart({ couponCode: 'NO-SUCH-CODE' }));
    expect(coupon.status).toBe(400);
    expect(coupon.details.applicationError?.code).toEqual(expect.any(String));
    expect(coupon.message).toContain(String(coupon.details.applicationError?.description));
  });
});

describe('checkout and orders', () => {
  it('creates a checkout, edits it, places the order, and the merchant marks it paid', async () => {
    const shopper = shopperOf(site);
    const created = await shopper.checkout.createCheckout({
      channelType: 'WEB',
      lineItems: [line(mug, 2)],
      checkoutInfo: { buyerInfo: { email: 'ada@example.com' } },
    });
    const id = created._id ?? '';
    expect(created.lineItems.map((l) => l.quantity)).toEqual([2]);
    expect((await shopper.checkout.getCheckout(id))._id).toBe(id);
    expect((await shopper.checkout.getCheckoutUrl(id)).checkoutUrl).toContain(id);
    expect((await shopper.checkout.getWixCheckoutUrl(id)).checkoutUrl).toContain(id);

    const updated = await shopper.checkout.updateCheckout(id, {
      shippingInfo: { shippingDestination: { address: NEW_YORK, contactDetails: { firstName: 'Ada', lastName: 'Lovelace' } } },
      billingInfo: { address: NEW_YORK, contactDetails: { firstName: 'Ada', lastName: 'Lovelace' } },
    }, { couponCode: 'TENOFF' });
    expect(updated.appliedDiscounts?.map((d) => d.coupon?.code)).toEqual(['TENOFF']);
    const noCoupon = await shopper.checkout.removeCoupon(id);
    expect(noCoupon.checkout?.appliedDiscounts ?? []).toEqual([]);
    const more = await shopper.checkout.addToCheckout(id, { lineItems: [line(beans)] });
    const beansLine = more.checkout?.lineItems.find((l) => l.catalogReference?.catalogItemId === beans);
    const mugLine = more.checkout?.lineItems.find((l) => l.catalogReference?.catalogItemId === mug);
    const fewer = await shopper.checkout.updateLineItemsQuantity(id, [{ _id: mugLine?._id ?? '', quantity: 1 }]);
    expect(fewer.checkout?.lineItems.map((l) => l.quantity)).toEqual([1, 1]);
    const removed = await shopper.checkout.removeLineItems(id, [beansLine?._id ?? '']);
    expect(removed.checkout?.lineItems).toHaveLength(1);
    const empty = await rejection(shopper.checkout.addToCheckout(id, {}));
    expect(empty.message).toBe('INVALID_ARGUMENT: "options.lineItems" must not be empty');
    const noToken = await rejection(shopper.checkout.createOrderAndCharge(id, {}));
    expect(noToken.message).toMatch(/^INVALID_ARGUMENT: "options\.paymentToken" /);

    const { orderId } = await shopper.checkout.createOrder(id);
    expect(orderId).toEqual(expect.any(String));
    const order = await shopper.orders.getOrder(orderId ?? '');
    expect(order).toMatchObject({ _id: orderId, paymentStatus: 'NOT_PAID', status: 'APPROVED', buyerInfo: { email: 'ada@example.com' } });
    expect(order.purchasedDate).toBeInstanceOf(Date);
    expect(order.lineItems.map((l) => [l.productName?.original, l.quantity, l.price?.amount])).toEqual([['Stoneware Mug', 1, '14.00']]);
    const mine = await shopper.orders.searchOrders({});
    expect(mine.orders.map((o) => o._id)).toEqual([orderId]);

    // The back office collects the payment.
    expect(await merchant.orders.getPaymentCollectabilityStatus(orderId ?? '')).toMatchObject({ status: 'COLLECTABLE', amount: { amount: '14.00' } });
    const refused = await rejection(shopper.orders.paymentCollectionMarkOrderAsPaid(orderId ?? ''));
    expect(refused.status).toBe(403);
    const paid = await merchant.orders.paymentCollectionMarkOrderAsPaid(orderId ?? '');
    expect(paid.order?.paymentStatus).toBe('PAID');
    const found = await merchant.orders.searchOrders({ filter: { paymentStatus: 'PAID' }, cursorPaging: { limit: 10 } });
    expect(found.orders.map((o) => o._id)).toContain(orderId);
    expect((await merchant.orders.getRefundabilityStatus(orderId ?? '')).refundabilities?.length).toBe(1);
  });

  it('charges with the test token, refunds, cancels, records manual and bulk payments', async () => {
    const shopper = shopperOf(site);
    const place = async (quantity: number) => {
      const c = await shopper.checkout.createCheckout({
        channelType: 'WEB', lineItems: [line(mug, quantity)],
        checkoutInfo: { buyerInfo: { email: 'bob@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } },
      });
      return c._id ?? '';
    };
    const declinedCheckout = await place(1);
    const declined = await rejection(shopper.checkout.createOrderAndCharge(declinedCheckout, { paymentToken: 'tok_test_decline' }));
    expect([declined.status, declined.details.applicationError?.code]).toEqual([402, 'PAYMENT_DECLINED']);
    const charged = await shopper.checkout.createOrderAndCharge(declinedCheckout, { paymentToken: 'tok_test_ok' });
    const chargedOrder = await merchant.orders.getOrder(charged.orderId ?? '');
    expect(chargedOrder.paymentStatus).toBe('PAID');

    const { refundabilities } = await merchant.orders.getRefundabilityStatus(charged.orderId ?? '');
    const paymentId = String(refundabilities?.[0]?.paymentId);
    await merchant.orders.triggerRefund(charged.orderId ?? '', [{ paymentId }], { sideEffects: { restockInfo: { type: 'ALL_ITEMS' } } });
    expect((await merchant.orders.getOrder(charged.orderId ?? '')).paymentStatus).toBe('FULLY_REFUNDED');

    const toCancel = (await shopper.checkout.createOrder(await place(2))).orderId ?? '';
    const cancelRefused = await rejection(shopper.orders.cancelOrder(toCancel));
    expect(cancelRefused.status).toBe(403);
    const canceled = await merchant.orders.cancelOrder(toCancel, { restockAllItems: true });
    expect(canceled.order?.status).toBe('CANCELED');

    const manual = (await shopper.checkout.createOrder(await place(1))).orderId ?? '';
    await merchant.orders.recordManuallyCollectedPayment(manual, { amount: '14.00' });
    expect((await merchant.orders.getOrder(manual)).paymentStatus).toBe('PAID');

    const bulkOne = (await shopper.checkout.createOrder(await place(1))).orderId ?? '';
    const bulk = await merchant.orders.paymentCollectionBulkMarkOrdersAsPaid([bulkOne, toCancel]);
    expect(bulk.results.map((r) => (r.itemMetadata as { success?: boolean }).success)).toEqual([true, false]);
    expect((await merchant.orders.getOrder(bulkOne)).paymentStatus).toBe('PAID');

    // The merchant pages every order by cursor.
    const seen: string[] = [];
    let page = await merchant.orders.searchOrders({ cursorPaging: { limit: 2 } });
    for (;;) {
      expect(page.orders.length).toBeLessThanOrEqual(2);
      seen.push(...page.orders.map((o) => o._id ?? ''));
      const next = page.metadata?.cursors?.next;
      if (!page.metadata?.hasNext || !next) break;
      page = await merchant.orders.searchOrders({ cursorPaging: { limit: 2, cursor: next } });
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining([charged.orderId, toCancel, manual, bulkOne]));
  });
});
