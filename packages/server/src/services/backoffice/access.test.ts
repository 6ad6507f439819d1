// Who may call each back-office call: anonymous and shoppers never; a contributor all but API
// keys and site settings; the owner and API keys everything. Each call is scoped to the caller's site.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, CALLERS, type BackOfficeSite, type CallerName } from '../../test/backoffice.js';

let t: TestApp;
let s: BackOfficeSite;

beforeAll(async () => {
  t = await testApp();
  s = await backOfficeSite(t);
});
afterAll(async () => t.close());

interface Call { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; payload?: Record<string, unknown>; ownerOnly?: boolean; allowedAnswers?: number[] }

const CALLS: Call[] = [
  { method: 'GET', url: '/bodega/v1/me' },
  { method: 'GET', url: '/bodega/v1/dashboard' },
  { method: 'GET', url: '/bodega/v1/search?q=a' },
  { method: 'GET', url: '/bodega/v1/orders/none/payments' },
  { method: 'GET', url: '/bodega/v1/api-keys', ownerOnly: true },
  { method: 'POST', url: '/bodega/v1/api-keys', payload: { name: 'k' }, ownerOnly: true },
  { method: 'DELETE', url: '/bodega/v1/api-keys/none', ownerOnly: true },
  { method: 'GET', url: '/bodega/v1/mail-outbox' },
  { method: 'GET', url: '/bodega/v1/mail-outbox/none' },
  { method: 'GET', url: '/bodega/v1/exports/products.csv' },
  { method: 'GET', url: '/bodega/v1/exports/orders.csv' },
  { method: 'GET', url: '/bodega/v1/exports/members.csv' },
  { method: 'POST', url: '/bodega/v1/import-jobs', payload: { target: 'products', format: 'csv', content: 'name,price\nA,1\n' } },
  { method: 'GET', url: '/bodega/v1/import-jobs/none' },
  { method: 'GET', url: '/bodega/v1/import-jobs/none/failures.csv' },
  { method: 'POST', url: '/stores/v1/bulk/products/update', payload: { ids: ['none'], set: { ribbon: 'Sale' } } },
  { method: 'POST', url: '/stores/v1/bulk/products/adjust-properties', payload: { ids: ['none'], adjust: { price: { amount: 1 } } } },
  { method: 'GET', url: '/_api/bodega/v1/site-settings' },
  // Domains, sign-up policy and the like are the owner's.
  { method: 'PATCH', url: '/_api/bodega/v1/site-settings', payload: { settings: {} }, ownerOnly: true },
  { method: 'POST', url: '/_api/bodega/v1/site-settings/domains/verify', payload: { domain: 'none.example' }, ownerOnly: true },
  { method: 'POST', url: '/bodega/v1/products/query', payload: { stock: 'OUT_OF_STOCK' } },
  // Coupons and commerce settings (services/coupons, services/commerce-settings).
  { method: 'POST', url: '/stores/v2/coupons/query', payload: {} },
  { method: 'GET', url: '/stores/v2/coupons/none' },
  { method: 'PATCH', url: '/stores/v2/coupons/none', payload: { specification: { name: 'x' } } },
  { method: 'DELETE', url: '/stores/v2/coupons/none' },
  { method: 'PATCH', url: '/_api/bodega/v1/coupons/none', payload: { specification: { active: false } } },
  { method: 'DELETE', url: '/_api/bodega/v1/coupons/none' },
  { method: 'GET', url: '/_api/bodega/v1/commerce-settings' },
  { method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', payload: { settings: {} } },
  // Site scripts run on every page of the site: only the owner (and API keys) change them.
  { method: 'GET', url: '/_api/bodega/v1/site-scripts' },
  { method: 'PUT', url: '/_api/bodega/v1/site-scripts', payload: { siteScripts: [] }, ownerOnly: true },
  // Payments (services/payments): the settings hold the provider's keys, so the owner's alone.
  { method: 'GET', url: '/_api/bodega/v1/payment-settings', ownerOnly: true },
  { method: 'PATCH', url: '/_api/bodega/v1/payment-settings', payload: { settings: { capturePolicy: 'ON_CHECKOUT' } }, ownerOnly: true },
  { method: 'POST', url: '/_api/bodega/v1/payment-settings/test-connection', ownerOnly: true },
  { method: 'POST', url: '/ecom/v1/payments-collector/orders/none/void-authorized-payments', payload: { paymentIds: ['none'] } },
  { method: 'POST', url: '/ecom/v1/payments-collector/orders/none/capture-authorized-payments', payload: { payments: [{ paymentId: 'none' }] } },
  { method: 'GET', url: '/ecom/v1/payments/orders/none' },
  // Gift cards (services/gift-cards).
  { method: 'GET', url: '/bodega/v1/gift-cards' },
  { method: 'POST', url: '/bodega/v1/gift-cards', payload: { amount: '5' } },
  { method: 'GET', url: '/bodega/v1/gift-cards/none' },
  { method: 'POST', url: '/bodega/v1/gift-cards/none/adjust', payload: { amount: '1', reason: 'r' } },
  { method: 'POST', url: '/bodega/v1/gift-cards/none/disable' },
  { method: 'POST', url: '/bodega/v1/gift-cards/none/enable' },
  { method: 'GET', url: '/bodega/v1/gift-cards/settings' },
  { method: 'PUT', url: '/bodega/v1/gift-cards/settings', payload: { productIds: [] } },
  // Uploaded pictures (services/media): a JSON body is no picture, so the allowed callers get a 400.
  { method: 'POST', url: '/bodega/v1/media', payload: { not: 'a picture' }, allowedAnswers: [400] },
  // Digital products' files and link rules (services/digital).
  { method: 'GET', url: '/bodega/v1/digital-products/none' },
  { method: 'PUT', url: '/bodega/v1/digital-products/none/rules', payload: { linkDays: 7, maxDownloads: 5 } },
  { method: 'DELETE', url: '/bodega/v1/digital-products/none/files/none' },
  // Payment links of orders (services/orders/payment-requests*.ts).
  { method: 'POST', url: '/ecom/v1/order-payment-requests', payload: { orderPaymentRequest: { orderId: 'none' } } },
  { method: 'GET', url: '/ecom/v1/order-payment-requests/none' },
  { method: 'POST', url: '/ecom/v1/order-payment-requests/query', payload: {} },
  { method: 'POST', url: '/ecom/v1/order-payment-requests/url', payload: { orderPaymentRequestId: 'none' } },
  { method: 'POST', url: '/ecom/v1/order-payment-requests/void', payload: { orderPaymentRequestId: 'none' } },
  { method: 'DELETE', url: '/ecom/v1/order-payment-requests/none' },
  { method: 'POST', url: '/_api/bodega/v1/order-payment-requests/none/send', payload: {} },
  // Invoices (services/invoices): issued, listed, mailed, voided and deleted by staff; the settings are the owner's.
  { method: 'GET', url: '/bodega/v1/invoices' },
  { method: 'POST', url: '/bodega/v1/orders/none/invoices' },
  { method: 'POST', url: '/bodega/v1/invoices/none/send', payload: {} },
  { method: 'POST', url: '/bodega/v1/invoices/none/void' },
  { method: 'DELETE', url: '/bodega/v1/invoices/none' },
  { method: 'GET', url: '/bodega/v1/invoice-settings', ownerOnly: true },
  { method: 'PATCH', url: '/bodega/v1/invoice-settings', payload: { prefix: 'INV-' }, ownerOnly: true },
  // Orders imported from another platform (services/orders/import-*.ts).
  { method: 'POST', url: '/bodega/v1/order-imports', payload: { format: 'csv', content: 'orderId,total\nX-1,\n' } },
  { method: 'GET', url: '/bodega/v1/order-imports/none/failures.csv' },
];

function expected(caller: CallerName, call: Call): 'allowed' | 401 | 403 {
  if (caller === 'anonymous') return 401;
  if (caller === 'visitor' || caller === 'member') return 403;
  if (caller === 'contributor' && call.ownerOnly) return 403;
  return 'allowed';
}

describe('who may call the back office', () => {
  for (const call of CALLS) {
    it(`${call.method} ${call.url}`, async () => {
      for (const caller of CALLERS) {
        const res = await t.app.inject({ method: call.method, url: call.url, headers: s.headers[caller], ...(call.payload ? { payload: call.payload } : {}) });
        const want = expected(caller, call);
        const label = `${caller}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        if (want === 'allowed') {
          // Allowed callers get the answer, or a 404 for the made-up ids these calls name.
          expect(call.allowedAnswers ?? [200, 404], label).toContain(res.statusCode);
        } else {
          expect(res.statusCode, label).toBe(want);
          expect(res.json(), label).toHaveProperty('details.applicationError.code');
        }
      }
    });
  }
});

describe('input is checked and answered in the wire error shape', () => {
  const bad: Call[] = [
    { method: 'GET', url: '/bodega/v1/dashboard?timeZone=Mars/Olympus' },
    { method: 'GET', url: '/bodega/v1/dashboard?from=2026-02-30' },
    { method: 'GET', url: '/bodega/v1/dashboard?from=2026-03-10&to=2026-03-01' },
    { method: 'GET', url: '/bodega/v1/search?limit=5' },
    { method: 'GET', url: '/bodega/v1/search?q=a&limit=500' },
    { method: 'GET', url: '/bodega/v1/mail-outbox?cursor=nonsense' },
    { method: 'GET', url: '/bodega/v1/mail-outbox?status=LOST' },
    { method: 'GET', url: '/bodega/v1/exports/orders.csv?paymentStatus=MAYBE' },
    { method: 'GET', url: '/bodega/v1/exports/orders.csv?from=yesterday-ish' },
    { method: 'POST', url: '/bodega/v1/api-keys', payload: { name: '' } },
    { method: 'POST', url: '/bodega/v1/import-jobs', payload: { target: 'people', format: 'csv', content: 'a' } },
    { method: 'POST', url: '/bodega/v1/import-jobs', payload: { target: 'data-items', format: 'csv', content: 'a\n1' } },
    { method: 'POST', url: '/bodega/v1/order-imports', payload: { format: 'xlsx', content: 'a' } },
    { method: 'POST', url: '/bodega/v1/order-imports', payload: { format: 'json', content: '{"not": "a list"}' } },
    { method: 'POST', url: '/stores/v1/bulk/products/update', payload: { ids: [], set: { ribbon: 'x' } } },
    { method: 'POST', url: '/stores/v1/bulk/products/update', payload: { ids: ['a'], set: {} } },
    { method: 'POST', url: '/stores/v1/bulk/products/update', payload: { ids: ['a'], set: { cost: 3 } } },
    { method: 'POST', url: '/stores/v1/bulk/products/adjust-properties', payload: { ids: ['a'], adjust: { price: {} } } },
    { method: 'PATCH', url: '/stores/v2/coupons/none', payload: { specification: { moneyOffAmount: 'ten' } } },
    { method: 'PATCH', url: '/stores/v2/coupons/none', payload: { specification: {}, fieldMask: [] } },
    { method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', payload: { settings: { shippingRegions: [{ id: 'x', name: 'X', country: 'US', rules: [{ code: 'a', title: 'A', rate: '-1', type: 'BY_TOTAL_PRICE', operator: 'LT', threshold: '1' }] }] } } },
    { method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', payload: { settings: { tax: { rates: [{ country: 'USA', rate: '5' }] } } } },
    { method: 'GET', url: '/bodega/v1/invoices?limit=500' },
    { method: 'PATCH', url: '/bodega/v1/invoice-settings', payload: { prefix: 'INV 1' } },
    { method: 'POST', url: '/bodega/v1/invoices/none/send', payload: { email: 'not-an-address' } },
  ];
  for (const call of bad) {
    it(`${call.method} ${call.url} ${call.payload ? JSON.stringify(call.payload) : ''}`, async () => {
      const res = await t.app.inject({ method: call.method, url: call.url, headers: s.headers.owner, ...(call.payload ? { payload: call.payload } : {}) });
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json() as { message: string; details: Record<string, unknown> };
      expect(typeof body.message).toBe('string');
      expect(Object.keys(body.details).some((k) => k === 'validationError' || k === 'applicationError'), res.body).toBe(true);
    });
  }
});

describe('what a contributor may not do, refused by the server whatever the UI shows', () => {
  it('cannot change roles or delete the owner; the owner can change roles', async () => {
    const site = await backOfficeSite(t);
    const promote = await t.app.inject({ method: 'POST', url: `/members/v1/members/${site.memberId}/role`, headers: site.headers.contributor, payload: { role: 'CONTRIBUTOR' } });
    expect(promote.statusCode, promote.body).toBe(403);
    const removeOwner = await t.app.inject({ method: 'DELETE', url: `/members/v1/members/${site.ownerId}`, headers: site.headers.contributor });
    expect(removeOwner.statusCode, removeOwner.body).toBeGreaterThanOrEqual(400);
    expect(removeOwner.statusCode).toBeLessThan(500);
    const owner = await t.app.inject({ method: 'GET', url: '/bodega/v1/me', headers: site.headers.owner });
    expect(owner.json()).toMatchObject({ role: 'OWNER' });
    const byOwner = await t.app.inject({ method: 'POST', url: `/members/v1/members/${site.memberId}/role`, headers: site.headers.owner, payload: { role: 'CONTRIBUTOR' } });
    expect(byOwner.statusCode, byOwner.body).toBe(200);
  });
});
