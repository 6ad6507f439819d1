// A shopper goes from products to a paid, fulfilled order through the official packages only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { products } from '@wix/stores';
import { checkout, currentCart, orderFulfillments, orders } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { STORES_APP_ID } from '../../test/commerce.js';

let t: TestApp;
let site: TestSite;
let wixFetch: ReturnType<typeof redirectWixFetch>;

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

describe('a shopper, start to finish', () => {
  it('browses, fills a cart, checks out, pays and gets the order fulfilled', async () => {
    const merchant = createClient({ modules: { products, orders, orderFulfillments }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) });
    const { product: mug } = await merchant.products.createProduct({ name: 'Stoneware Mug', productType: products.ProductType.physical, priceData: { price: 14 }, stock: { trackInventory: true, quantity: 10 } });
    const { product: beans } = await merchant.products.createProduct({ name: 'House Beans', productType: products.ProductType.physical, priceData: { price: 11.5 } });

    const shopper = createClient({ modules: { products, currentCart, checkout, orders }, auth: OAuthStrategy({ clientId: site.clientId }) });
    const found = await shopper.products.queryProducts().startsWith('name', 'Stone').find();
    expect(found.items.map((p) => p._id)).toEqual([mug?._id]);

    await shopper.currentCart.addToCurrentCart({
      lineItems: [
        { catalogReference: { appId: STORES_APP_ID, catalogItemId: mug?._id as string }, quantity: 2 },
        { catalogReference: { appId: STORES_APP_ID, catalogItemId: beans?._id as string }, quantity: 1 },
      ],
    });
    const estimate = await shopper.currentCart.estimateCurrentCartTotals({ shippingAddress: { country: 'US', subdivision: 'US-NY' } });
    expect(estimate.priceSummary?.total?.amount).toBe('39.50');

    const { checkoutId } = await shopper.currentCart.createCheckoutFromCurrentCart({ channelType: checkout.ChannelType.WEB });
    expect(checkoutId).toEqual(expect.any(String));
    const updated = await shopper.checkout.updateCheckout(checkoutId as string, {
      buyerInfo: { email: 'ada@example.com' },
      shippingInfo: { shippingDestination: { address: { country: 'US', subdivision: 'US-NY', city: 'New York', addressLine1: '1 Main St', postalCode: '10001' }, contactDetails: { firstName: 'Ada', lastName: 'Lovelace' } } },
      billingInfo: { address: { country: 'US', subdivision: 'US-NY', city: 'New York' }, contactDetails: { firstName: 'Ada', lastName: 'Lovelace' } },
    });
    expect(updated.priceSummary?.total?.amount).toBe('39.50');
    expect(updated.shippingInfo?.selectedCarrierServiceOption?.code).toBe('standard');
    expect(updated.lineItems?.map((l) => l.quantity)).toEqual([2, 1]);

    await expect(shopper.checkout.createOrderAndCharge(checkoutId as string, { paymentToken: 'tok_test_decline' }))
      .rejects.toMatchObject({ details: { applicationError: { code: 'PAYMENT_DECLINED' } } });
    const paid = await shopper.checkout.createOrderAndCharge(checkoutId as string, { paymentToken: 'tok_test_ok' });
    expect(paid.orderId).toEqual(expect.any(String));

    // The thank-you page: the visitor reads their own order.
    const order = await shopper.orders.getOrder(paid.orderId as string);
    expect(order).toMatchObject({
      number: '10001',
      paymentStatus: 'PAID',
      fulfillmentStatus: 'NOT_FULFILLED',
      status: 'APPROVED',
      buyerInfo: { email: 'ada@example.com', visitorId: expect.any(String) },
      priceSummary: { subtotal: { amount: '39.50' }, total: { amount: '39.50' } },
      shippingInfo: { title: 'Standard delivery', logistics: { shippingDestination: { address: { city: 'New York' } } } },
      billingInfo: { contactDetails: { firstName: 'Ada' } },
      checkoutId,
    });
    expect(order.purchasedDate).toBeInstanceOf(Date);
    expect(order.activities?.map((a) => a.type)).toEqual(['ORDER_PLACED', 'ORDER_PAID']);
    expect(order.lineItems?.map((l) => [l.productName?.original, l.quantity, l.price?.amount, l.paymentOption])).toEqual([
      ['Stoneware Mug', 2, '14.00', 'FULL_PAYMENT_ONLINE'],
      ['House Beans', 1, '11.50', 'FULL_PAYMENT_ONLINE'],
    ]);
    await expect(shopper.currentCart.getCurrentCart()).rejects.toMatchObject({ details: { applicationError: { code: 'OWNED_CART_NOT_FOUND' } } });

    const { product: after } = await merchant.products.getProduct(mug?._id as string);
    expect(after?.stock?.quantity).toBe(8);

    const { orderWithFulfillments } = await merchant.orderFulfillments.createFulfillment(paid.orderId as string, {
      lineItems: [],
      trackingInfo: { trackingNumber: '1Z999', shippingProvider: 'ups' },
    });
    expect(orderWithFulfillments?.fulfillments?.[0]?.trackingInfo?.trackingNumber).toBe('1Z999');
    const fulfilled = await merchant.orders.getOrder(paid.orderId as string);
    expect(fulfilled.fulfillmentStatus).toBe('FULFILLED');
    expect(fulfilled.activities?.map((a) => a.type)).toEqual(['ORDER_PLACED', 'ORDER_PAID', 'TRACKING_NUMBER_ADDED', 'ORDER_FULFILLED', 'SHIPPING_CONFIRMATION_EMAIL_SENT']);

    const mine = await shopper.orders.searchOrders({});
    expect(mine.orders?.map((o) => o._id)).toEqual([paid.orderId]);
    expect(wixFetch.calls).toEqual(expect.arrayContaining([
      'POST /ecom/v1/carts/current/add-to-cart',
      `POST /ecom/v1/checkouts/${checkoutId}/create-order-and-charge`,
      `POST /ecom/v1/fulfillments/orders/${paid.orderId}/create-fulfillment`,
    ]));
  });
});
