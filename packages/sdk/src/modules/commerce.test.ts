import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyStrategy } from '../auth/api-key.js';
import { createClient } from '../client.js';
import { BodegaError } from '../core/errors.js';
import { startReceiver, type Receiver } from '../test-support/receiver.js';
import { checkout } from './checkout.js';
import { currentCart } from './current-cart.js';
import { orders } from './orders.js';

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

const client = () =>
  createClient({ modules: { currentCart, checkout, orders }, auth: ApiKeyStrategy({ apiKey: 'K' }), baseUrl: receiver.url });

async function rejection(promise: Promise<unknown>): Promise<BodegaError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof BodegaError)) throw new Error(`expected a BodegaError, got ${String(error)}`);
  return error;
}

const WIRE_CART = {
  cart: {
    id: 'cart-1',
    createdDate: '2024-05-01T10:00:00.000Z',
    updatedDate: '2024-05-01T11:00:00.000Z',
    lineItems: [{ id: 'li-1', quantity: 1, price: { amount: '10' } }],
  },
};

describe('currentCart', () => {
  it('makes all nine calls on the custom-host cart paths', async () => {
    receiver.reply(() => ({ body: WIRE_CART }));
    const c = client().currentCart;
    await c.getCurrentCart();
    await c.updateCurrentCart({ couponCode: 'SAVE' });
    await c.addToCurrentCart({
      lineItems: [{ catalogReference: { appId: 'app', catalogItemId: 'p1', options: { variantId: 'v1' } }, quantity: 2 }],
    });
    await c.removeLineItemsFromCurrentCart(['li-1']);
    await c.createCheckoutFromCurrentCart({ channelType: 'WEB', email: 'a@b.c' });
    await c.removeCouponFromCurrentCart();
    await c.updateCurrentCartLineItemQuantity([{ _id: 'li-1', quantity: 3 }]);
    await c.estimateCurrentCartTotals({ calculateTax: true, calculateShipping: false });
    await c.deleteCurrentCart();
    const P = '/_api/ecom-cart/v1/carts/current';
    expect(receiver.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${P}`,
      `PATCH ${P}`,
      `POST ${P}/add-to-cart`,
      `POST ${P}/remove-line-items`,
      `POST ${P}/create-checkout`,
      `POST ${P}/remove-coupon`,
      `POST ${P}/update-line-items-quantity`,
      `POST ${P}/estimate-totals`,
      `DELETE ${P}`,
    ]);
    expect(receiver.requests[2].body).toEqual({
      lineItems: [{ catalogReference: { appId: 'app', catalogItemId: 'p1', options: { variantId: 'v1' } }, quantity: 2 }],
    });
    expect(receiver.requests[3].body).toEqual({ lineItemIds: ['li-1'] });
    expect(receiver.requests[5].body).toEqual({});
    expect(receiver.requests[6].body).toEqual({ lineItems: [{ quantity: 3, id: 'li-1' }] });
    expect(receiver.requests[7].body).toEqual({ calculateTax: true, calculateShipping: false });
  });

  it('returns the cart with _id, _createdDate as Date, and renamed line item ids', async () => {
    receiver.reply(() => ({ body: WIRE_CART }));
    const cart = await client().currentCart.getCurrentCart();
    expect(cart._id).toBe('cart-1');
    expect(cart._createdDate).toEqual(new Date('2024-05-01T10:00:00.000Z'));
    expect(cart._updatedDate).toBeInstanceOf(Date);
    expect(cart.lineItems[0]._id).toBe('li-1');
    const whole = await client().currentCart.addToCurrentCart({ lineItems: [] });
    expect(whole.cart?._id).toBe('cart-1');
  });

  it('rethrows a validation error with field paths named after the arguments', async () => {
    receiver.reply(() => ({
      status: 400,
      headers: { 'x-wix-request-id': 'rid-9' },
      body: {
        message: 'bad',
        details: {
          validationError: {
            fieldViolations: [
              { field: 'lineItems', description: 'must not be empty', violatedRule: 'MIN_SIZE', data: { threshold: 1 } },
            ],
          },
        },
      },
    }));
    const error = await rejection(client().currentCart.addToCurrentCart({ lineItems: [] }));
    expect(error.message).toBe('INVALID_ARGUMENT: "options.lineItems" must not be empty');
    expect(error.status).toBe(400);
    expect(error.requestId).toBe('rid-9');
    expect(error.details.validationError?.fieldViolations).toEqual([
      { field: 'options.lineItems', description: 'must not be empty', violatedRule: 'MIN_SIZE', data: { threshold: 1 } },
    ]);
  });

  it('names positional arguments and renames id segments in field paths', async () => {
    receiver.reply(() => ({
      status: 400,
      body: {
        message: 'bad',
        details: {
          validationError: {
            fieldViolations: [
              { field: 'lineItems[0].quantity', description: 'must be at least 1' },
              { field: 'lineItems[0].id', description: 'is required' },
            ],
          },
        },
      },
    }));
    const error = await rejection(client().currentCart.updateCurrentCartLineItemQuantity([{ _id: '', quantity: 0 }]));
    expect(error.message).toBe(
      'INVALID_ARGUMENT: "lineItems[0]._id" is required, "lineItems[0].quantity" must be at least 1',
    );
  });

  it('joins the message and description of an application error', async () => {
    receiver.reply(() => ({
      status: 404,
      body: {
        message: 'Not found',
        details: { applicationError: { code: 'OWNED_CART_NOT_FOUND', description: 'Cart not found', data: {} } },
      },
    }));
    const error = await rejection(client().currentCart.getCurrentCart());
    expect(error.message).toBe('Not found: Cart not found');
    expect(error.details.applicationError?.code).toBe('OWNED_CART_NOT_FOUND');
    expect(error.status).toBe(404);
  });

  it('keeps the message alone when it equals the description', async () => {
    receiver.reply(() => ({
      status: 404,
      body: { message: 'Cart not found', details: { applicationError: { code: 'X', description: 'Cart not found' } } },
    }));
    expect((await rejection(client().currentCart.getCurrentCart())).message).toBe('Cart not found');
  });
});

describe('checkout', () => {
  it('uses /ecom/v1/checkouts and repeats path params in the payload', async () => {
    receiver.reply(() => ({ body: { checkout: { id: 'co-1' }, orderId: 'o-1' } }));
    const c = client().checkout;
    expect(await c.getCheckout('co-1')).toEqual({ _id: 'co-1' });
    await c.createOrder('co-1', { savePaymentMethod: false });
    await c.updateCheckout('co-1', { buyerNote: 'hi' }, { couponCode: 'C' });
    await c.createCheckout({ channelType: 'WEB' });
    expect(receiver.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /ecom/v1/checkouts/co-1?id=co-1',
      'POST /ecom/v1/checkouts/co-1/create-order',
      'PATCH /ecom/v1/checkouts/co-1',
      'POST /ecom/v1/checkouts',
    ]);
    expect(receiver.requests[1].body).toEqual({ id: 'co-1', savePaymentMethod: false });
    expect(receiver.requests[2].body).toEqual({ checkout: { buyerNote: 'hi', id: 'co-1' }, couponCode: 'C' });
  });

  it('maps the checkout id field to the _id argument', async () => {
    receiver.reply(() => ({
      status: 400,
      body: { message: 'bad', details: { validationError: { fieldViolations: [{ field: 'checkout.id', description: 'is unknown' }] } } },
    }));
    const error = await rejection(client().checkout.updateCheckout('zz', {}));
    expect(error.message).toBe('INVALID_ARGUMENT: "_id" is unknown');
  });
});

describe('orders', () => {
  it('uses the orders and payments-collector paths and converts purchasedDate', async () => {
    receiver.reply(() => ({ body: { order: { id: 'o-1', number: '10001', purchasedDate: '2024-05-01T10:00:00.000Z' } } }));
    const o = client().orders;
    const order = await o.getOrder('o-1');
    expect(order).toEqual({ _id: 'o-1', number: '10001', purchasedDate: new Date('2024-05-01T10:00:00.000Z') });
    await o.searchOrders({ cursorPaging: { limit: 10 } });
    await o.paymentCollectionMarkOrderAsPaid('o-1');
    await o.paymentCollectionBulkMarkOrdersAsPaid(['o-1']);
    await o.cancelOrder('o-1', { restockAllItems: true });
    expect(receiver.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /_api/ecom-orders/v1/orders/o-1?id=o-1',
      'POST /_api/ecom-orders/v1/orders/search',
      'POST /v1/payments-collector/orders/o-1/mark-as-paid',
      'POST /v1/bulk/payments-collector/mark-as-paid',
      'POST /_api/ecom-orders/v1/orders/o-1/cancel',
    ]);
    expect(receiver.requests[1].body).toEqual({ search: { cursorPaging: { limit: 10 } } });
    expect(receiver.requests[2].body).toEqual({ ecomOrderId: 'o-1' });
  });
});
