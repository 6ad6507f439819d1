// Payment requests through the official @wix/ecom orderPaymentRequests calls: a committed draft
// order's balance asked of the customer by a signed link, paid once with the test provider (two
// tabs paying at once charge once), refused in words when paid, voided, expired or tampered with;
// mailed through the outbox; an edit that raised a card-paid order's total collected by a link;
// who may call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { draftOrders, orderPaymentRequests } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { apiKey, catalogLine, createProduct, NEW_YORK, placeOrder, type WireProduct } from '../../test/commerce.js';
import { TEST_TOKENS } from '../payments/service.js';

let clock = new Date('2026-11-01T10:00:00Z');
let t: TestApp;
let a: BackOfficeSite;
let b: BackOfficeSite;
let site: TestSite;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let mug: WireProduct;

beforeAll(async () => {
  t = await testApp({ now: () => clock });
  a = await backOfficeSite(t);
  b = await backOfficeSite(t);
  site = a.site;
  mug = await createProduct(t.app, site, { name: 'Mug', priceData: { price: 12 } });
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

function merchant(s: TestSite = site) {
  return createClient({ modules: { draftOrders, orderPaymentRequests }, auth: ApiKeyStrategy({ apiKey: s.apiKey, siteId: s.siteId }) });
}

/** A committed phone order for a customer known by e-mail: 2 mugs and a custom line, 10.00 off, unpaid. */
async function phoneOrder(): Promise<{ orderId: string; total: string }> {
  const created = await merchant().draftOrders.createDraftOrder({
    draftOrder: {
      buyerInfo: { email: 'phone@example.com' },
      catalogLineItems: [{ catalogReference: catalogLine(mug.id).catalogReference, quantity: 2 }],
      customLineItems: [{ productName: { original: 'Gift wrap' }, price: { amount: '5.00' }, quantity: 1, itemType: { preset: 'SERVICE' } }],
      discounts: [{ amount: { amount: '10.00' } }],
      shippingInfo: { logistics: { shippingDestination: { address: NEW_YORK } } },
    },
  });
  const committed = await merchant().draftOrders.commitDraftOrder(created.calculatedDraftOrder?.draftOrder?._id ?? '');
  return { orderId: committed.orderAfterCommit?._id ?? '', total: committed.orderAfterCommit?.priceSummary?.total?.amount ?? '' };
}

const tokenOf = (url: string) => url.split('/pay/')[1] ?? '';
const shopper = () => a.headers.visitor;

async function orderOf(orderId: string) {
  return (await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: apiKey(site) })).json().order;
}

describe('a payment link for a phone order', () => {
  it('asks for the balance due, shows the order, is paid once by the test provider, then refuses in words', async () => {
    const { orderId, total } = await phoneOrder();
    expect(total).toBe('19.00'); // 2 × 12 + 5 − 10; the site has no tax rates or shipping charges
    const client = merchant();
    const created = await client.orderPaymentRequests.createOrderPaymentRequest({ orderPaymentRequest: { orderId, description: 'Your phone order' } });
    expect(created).toMatchObject({ orderId, status: 'UNPAID', amount: { amount: '19.00' }, title: expect.stringMatching(/^Order #\d+$/), currency: 'USD' });
    const url = (await client.orderPaymentRequests.getOrderPaymentRequestUrl(created?._id ?? '')).orderPaymentRequestUrl ?? '';
    expect(url).toMatch(/\/pay\/[^/]+\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect((await client.orderPaymentRequests.getOrderPaymentRequest(created?._id ?? ''))?.status).toBe('UNPAID');

    const token = tokenOf(url);
    const view = await t.app.inject({ method: 'GET', url: `/_api/bodega/v1/payment-links/${token}`, headers: shopper() });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().order).toMatchObject({
      lineItems: [{ name: 'Mug', quantity: 2, price: { amount: '12.00' }, total: { amount: '24.00' } }, { name: 'Gift wrap', quantity: 1, total: { amount: '5.00' } }],
      priceSummary: { discount: { amount: '10.00' }, total: { amount: '19.00', formattedAmount: '$19.00' } },
      balanceDue: { amount: '19.00' },
    });
    expect(view.body).not.toContain('phone@example.com');

    const declined = await t.app.inject({ method: 'POST', url: `/_api/bodega/v1/payment-links/${token}/pay`, headers: shopper(), payload: { paymentToken: TEST_TOKENS.decline } });
    expect([declined.statusCode, declined.json().details.applicationError.code]).toEqual([402, 'PAYMENT_DECLINED']);

    // Two tabs pay at once: one charge, one order payment. The tab that comes second is told the
    // order is paid, either as its own answer (it waited on the checkout's lock) or in words.
    const pays = await Promise.all([1, 2].map(() => t.app.inject({ method: 'POST', url: `/_api/bodega/v1/payment-links/${token}/pay`, headers: shopper(), payload: { paymentToken: TEST_TOKENS.approve } })));
    expect(pays.some((res) => res.statusCode === 200)).toBe(true);
    for (const res of pays) {
      if (res.statusCode === 200) expect(res.json()).toMatchObject({ orderPaymentRequest: { status: 'PAID' }, order: { paymentStatus: 'PAID', balanceDue: { amount: '0.00' } } });
      else expect([res.statusCode, res.json().details.applicationError.code], res.body).toEqual([409, 'ORDER_PAYMENT_REQUEST_ALREADY_PAID']);
    }
    const order = await orderOf(orderId);
    expect(order.paymentStatus).toBe('PAID');
    const approved = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM payment_transactions WHERE site_id = $1 AND order_id = $2 AND kind = 'PAYMENT'", [site.siteId, orderId]);
    expect(approved[0].n).toBe(1);

    const again = await t.app.inject({ method: 'POST', url: `/_api/bodega/v1/payment-links/${token}/pay`, headers: shopper(), payload: { paymentToken: TEST_TOKENS.approve } });
    expect([again.statusCode, again.json().details.applicationError.code]).toEqual([409, 'ORDER_PAYMENT_REQUEST_ALREADY_PAID']);
    expect(again.json().message).toMatch(/already paid/);
    expect((await client.orderPaymentRequests.getOrderPaymentRequest(created?._id ?? ''))?.status).toBe('PAID');
    const more = await t.app.inject({ method: 'POST', url: '/ecom/v1/order-payment-requests', headers: apiKey(site), payload: { orderPaymentRequest: { orderId } } });
    expect([more.statusCode, more.json().details.applicationError.code]).toEqual([400, 'ORDER_ALREADY_PAID']);
  });

  it('is refused when changed, when from another shop, once voided and once expired; query lists by order and status', async () => {
    const { orderId } = await phoneOrder();
    const client = merchant();
    const first = await client.orderPaymentRequests.createOrderPaymentRequest({ orderPaymentRequest: { orderId } });
    const link = tokenOf((await client.orderPaymentRequests.getOrderPaymentRequestUrl(first?._id ?? '')).orderPaymentRequestUrl ?? '');
    const [id, expires, sig] = link.split('.');
    const tampered = [`${id}.${Number(expires) + 1}.${sig}`, `${id}.${expires}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`, 'nonsense', `${id}.${expires}`];
    for (const token of tampered) {
      const res = await t.app.inject({ method: 'GET', url: `/_api/bodega/v1/payment-links/${encodeURIComponent(token)}`, headers: shopper() });
      expect([res.statusCode, res.json().details.applicationError.code], token).toEqual([404, 'PAYMENT_LINK_NOT_FOUND']);
    }
    const otherShop = await t.app.inject({ method: 'GET', url: `/_api/bodega/v1/payment-links/${link}`, headers: b.headers.visitor });
    expect(otherShop.statusCode).toBe(404);

    await client.orderPaymentRequests.voidOrderPaymentRequest(first?._id ?? '');
    const voided = await t.app.inject({ method: 'POST', url: `/_api/bodega/v1/payment-links/${link}/pay`, headers: shopper(), payload: { paymentToken: TEST_TOKENS.approve } });
    expect([voided.statusCode, voided.json().details.applicationError.code]).toEqual([410, 'ORDER_PAYMENT_REQUEST_VOIDED']);
    expect(voided.json().message).toMatch(/withdrew/);

    clock = new Date(clock.getTime() + 1000);
    const expiring = await client.orderPaymentRequests.createOrderPaymentRequest({ orderPaymentRequest: { orderId, expirationDate: new Date(clock.getTime() + 3_600_000) } });
    const expLink = tokenOf((await client.orderPaymentRequests.getOrderPaymentRequestUrl(expiring?._id ?? '')).orderPaymentRequestUrl ?? '');
    expect((await t.app.inject({ method: 'GET', url: `/_api/bodega/v1/payment-links/${expLink}`, headers: shopper() })).statusCode).toBe(200);
    const listed = await client.orderPaymentRequests.queryOrderPaymentRequests().eq('orderId', orderId).find();
    expect(listed.items.map((r) => r.status)).toEqual(['UNPAID', 'VOIDED']);
    clock = new Date(clock.getTime() + 2 * 3_600_000);
    const late = await t.app.inject({ method: 'POST', url: `/_api/bodega/v1/payment-links/${expLink}/pay`, headers: shopper(), payload: { paymentToken: TEST_TOKENS.approve } });
    expect([late.statusCode, late.json().details.applicationError.code]).toEqual([410, 'ORDER_PAYMENT_REQUEST_EXPIRED']);
    expect(late.json().message).toMatch(/has expired/);
    expect((await client.orderPaymentRequests.getOrderPaymentRequest(expiring?._id ?? ''))?.status).toBe('EXPIRED');
    const expired = await client.orderPaymentRequests.queryOrderPaymentRequests().eq('orderId', orderId).eq('status', 'EXPIRED').find();
    expect(expired.items.map((r) => r._id)).toEqual([expiring?._id]);
    expect((await orderOf(orderId)).paymentStatus).toBe('NOT_PAID');

    const wrongAmount = await t.app.inject({ method: 'POST', url: '/ecom/v1/order-payment-requests', headers: apiKey(site), payload: { orderPaymentRequest: { orderId, amount: { amount: '1.00' } } } });
    expect(wrongAmount.statusCode).toBe(400);
    expect(wrongAmount.json().details.validationError.fieldViolations[0].description).toMatch(/balance due, \$19\.00/);
    await client.orderPaymentRequests.deleteOrderPaymentRequest(expiring?._id ?? '');
    const gone = await t.app.inject({ method: 'GET', url: `/ecom/v1/order-payment-requests/${expiring?._id}`, headers: apiKey(site) });
    expect([gone.statusCode, gone.json().details.applicationError.code]).toEqual([404, 'ORDER_PAYMENT_REQUEST_NOT_FOUND']);
  });

  it('is e-mailed to the buyer through the mail outbox', async () => {
    const { orderId } = await phoneOrder();
    const created = await merchant().orderPaymentRequests.createOrderPaymentRequest({ orderPaymentRequest: { orderId } });
    const sent = await t.app.inject({ method: 'POST', url: `/_api/bodega/v1/order-payment-requests/${created?._id}/send`, headers: a.headers.owner, payload: {} });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().to).toBe('phone@example.com');
    const mails = await t.db.query<{ to_address: string; subject: string; text_body: string }>(
      "SELECT to_address, subject, text_body FROM mail_outbox WHERE site_id = $1 AND kind = 'orders.PAYMENT_REQUEST' ORDER BY created_at DESC LIMIT 1", [site.siteId]);
    expect(mails[0]).toMatchObject({ to_address: 'phone@example.com', subject: expect.stringMatching(/payment for order #\d+/) });
    const url = /Pay here: (\S+)/.exec(mails[0].text_body)?.[1] ?? '';
    const view = await t.app.inject({ method: 'GET', url: `/_api/bodega/v1/payment-links/${tokenOf(url)}`, headers: shopper() });
    expect(view.json().orderPaymentRequest.id).toBe(created?._id);
    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_log WHERE site_id = $1 AND object_id = $2 ORDER BY action', [site.siteId, created?._id]);
    expect(audit.map((x) => x.action)).toEqual(['order_payment_request.created', 'order_payment_request.sent']);
  });
});

describe('an edit that raised a card-paid order', () => {
  it('leaves a balance the link collects as a second provider payment', async () => {
    const { orderId } = await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(mug.id)], { paymentToken: TEST_TOKENS.approve });
    const client = merchant();
    const edit = await client.draftOrders.createDraftOrder({ orderId });
    const draftId = edit.calculatedDraftOrder?.draftOrder?._id ?? '';
    await client.draftOrders.addLineItemsToDraftOrder(draftId, { catalogLineItems: [{ catalogReference: catalogLine(mug.id).catalogReference, quantity: 1 }] });
    await client.draftOrders.commitDraftOrder(draftId);
    const edited = await orderOf(orderId);
    expect(edited.paymentStatus).toBe('PARTIALLY_PAID');
    const due = edited.balanceSummary.balance.amount as string;
    const created = await client.orderPaymentRequests.createOrderPaymentRequest({ orderPaymentRequest: { orderId } });
    expect(created?.amount?.amount).toBe(due);
    const token = tokenOf((await client.orderPaymentRequests.getOrderPaymentRequestUrl(created?._id ?? '')).orderPaymentRequestUrl ?? '');
    const paid = await t.app.inject({ method: 'POST', url: `/_api/bodega/v1/payment-links/${token}/pay`, headers: shopper(), payload: { paymentToken: TEST_TOKENS.approve } });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().orderPaymentRequest.status).toBe('PAID');
    const after = await orderOf(orderId);
    expect(after.paymentStatus).toBe('PAID');
    const payments = await t.db.query<{ amount: string }>("SELECT amount_minor::text AS amount FROM payment_transactions WHERE site_id = $1 AND order_id = $2 AND kind = 'PAYMENT' ORDER BY created_at", [site.siteId, orderId]);
    expect(payments).toHaveLength(2);
  });
});

describe('who may call', () => {
  it('staff of the site succeed first; another site, shoppers and no token are refused; the link alone opens the shop page', async () => {
    const { orderId } = await phoneOrder();
    const created = await t.app.inject({ method: 'POST', url: '/ecom/v1/order-payment-requests', headers: a.headers.owner, payload: { orderPaymentRequest: { orderId } } });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().orderPaymentRequest.id as string;
    const calls = [
      { method: 'GET' as const, url: `/ecom/v1/order-payment-requests/${id}` },
      { method: 'POST' as const, url: '/ecom/v1/order-payment-requests/url', payload: { orderPaymentRequestId: id } },
      { method: 'POST' as const, url: '/ecom/v1/order-payment-requests/query', payload: { query: { filter: { orderId } } } },
      { method: 'POST' as const, url: `/_api/bodega/v1/order-payment-requests/${id}/send`, payload: {} },
      { method: 'POST' as const, url: '/ecom/v1/order-payment-requests', payload: { orderPaymentRequest: { orderId } } },
    ];
    for (const call of calls) {
      for (const who of ['owner', 'contributor', 'apiKey'] as const) {
        const res = await t.app.inject({ ...call, headers: a.headers[who] });
        expect(res.statusCode, `${who} ${call.url}: ${res.body}`).toBe(200);
      }
      for (const who of ['owner', 'apiKey'] as const) {
        const res = await t.app.inject({ ...call, headers: b.headers[who] });
        if (call.url.endsWith('/query')) expect(res.json().orderPaymentRequests, `other site's ${who}`).toEqual([]);
        else expect(res.statusCode, `other site's ${who} ${call.url}: ${res.body}`).toBe(404);
      }
      for (const [who, status] of [['visitor', 403], ['member', 403], ['anonymous', 401]] as const) {
        const res = await t.app.inject({ ...call, headers: a.headers[who] });
        expect(res.statusCode, `${who} ${call.url}`).toBe(status);
      }
    }
    for (const [method, url, payload] of [['POST', '/ecom/v1/order-payment-requests/void', { orderPaymentRequestId: id }], ['DELETE', `/ecom/v1/order-payment-requests/${id}`, undefined]] as const) {
      for (const headers of [b.headers.owner, b.headers.apiKey]) expect((await t.app.inject({ method, url, headers, ...(payload && { payload }) })).statusCode).toBe(404);
      for (const headers of [a.headers.visitor, a.headers.member]) expect((await t.app.inject({ method, url, headers, ...(payload && { payload }) })).statusCode).toBe(403);
      expect((await t.app.inject({ method, url, headers: a.headers.anonymous, ...(payload && { payload }) })).statusCode).toBe(401);
      expect((await t.app.inject({ method, url, headers: a.headers.contributor, ...(payload && { payload }) })).statusCode).toBe(200);
    }
    // The shop's page: any token of this site with the link; none without a token.
    const link = await t.app.inject({ method: 'POST', url: '/ecom/v1/order-payment-requests', headers: a.headers.apiKey, payload: { orderPaymentRequest: { orderId } } });
    const token = tokenOf(link.json().orderPaymentRequestUrl);
    for (const who of ['visitor', 'member', 'owner'] as const) {
      expect((await t.app.inject({ method: 'GET', url: `/_api/bodega/v1/payment-links/${token}`, headers: a.headers[who] })).statusCode, who).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: `/_api/bodega/v1/payment-links/${token}`, headers: a.headers.anonymous })).statusCode).toBe(401);
    for (const who of ['owner', 'apiKey', 'visitor'] as const) {
      expect((await t.app.inject({ method: 'GET', url: `/_api/bodega/v1/payment-links/${token}`, headers: b.headers[who] })).statusCode, `other site's ${who}`).toBe(404);
    }
  });
});
