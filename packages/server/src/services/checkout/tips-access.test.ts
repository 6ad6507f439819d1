// Who may make the tips calls: each new endpoint with its rightful caller first, then every other
// kind of caller — another site's owner and key, a contributor, a member, a visitor, no token.
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite, type CallerName } from '../../test/backoffice.js';
import { catalogLine, createProduct, NEW_YORK } from '../../test/commerce.js';

let t: TestApp;
let a: BackOfficeSite;
let b: BackOfficeSite;
let checkoutId: string;
let orderId: string;
const SETTINGS = '/_api/tip-settings/v1/tip-settings';
const TIPS = '/_api/tips-service/v1/tips';
const STAFF = ['owner', 'contributor', 'apiKey'] as const;

beforeAll(async () => {
  t = await testApp();
  a = await backOfficeSite(t);
  b = await backOfficeSite(t);
  const on = await t.app.inject({ method: 'PATCH', url: SETTINGS, headers: a.headers.apiKey, payload: { tipSettings: { allowCustomerTip: true } } });
  expect(on.statusCode, on.body).toBe(200);
  const mug = await createProduct(t.app, a.site, { name: 'Mug', priceData: { price: 10 } });
  // The visitor's checkout (tip choices), and an order with a tip.
  const created = await t.app.inject({
    method: 'POST', url: '/ecom/v1/checkouts', headers: a.headers.visitor,
    payload: { channelType: 'WEB', lineItems: [catalogLine(mug.id)], checkoutInfo: { buyerInfo: { email: 'v@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } },
  });
  checkoutId = created.json().checkout.id;
  const other = await t.app.inject({
    method: 'POST', url: '/ecom/v1/checkouts', headers: a.headers.visitor,
    payload: { channelType: 'WEB', lineItems: [catalogLine(mug.id)], checkoutInfo: { buyerInfo: { email: 'v@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } },
  });
  const placed = other.json().checkout.id;
  await t.app.inject({ method: 'PATCH', url: `${TIPS}/choice`, headers: a.headers.visitor, payload: { purchaseFlowId: placed, tipChoice: { tipType: 'PERCENTAGE', value: '15' } } });
  orderId = (await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${placed}/create-order`, headers: a.headers.visitor, payload: { id: placed } })).json().orderId;
});

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, who: CallerName, site: BackOfficeSite, payload?: object) =>
  t.app.inject({ method, url, headers: site.headers[who], ...(payload && { payload }) });

describe('who may use tips', () => {
  it('changes the tip settings: this site\'s staff; another site\'s owner and key change their own; shoppers and no token are refused', async () => {
    for (const who of STAFF) {
      const res = await call('PATCH', SETTINGS, who, a, { tipSettings: { allowCustomerTip: true, presets: [{ value: 15, default: true }] } });
      expect([res.statusCode, res.json().tipSettings?.presets], `${who}: ${res.body}`).toEqual([200, [{ value: 15, default: true }]]);
    }
    for (const who of ['owner', 'apiKey'] as const) {
      const res = await call('PATCH', SETTINGS, who, b, { tipSettings: { presets: [{ value: 5 }] } });
      expect(res.statusCode, `other site's ${who}`).toBe(200);
    }
    expect((await call('POST', `${SETTINGS}/query`, 'visitor', a, {})).json().tipSettings[0].presets).toEqual([{ value: 15, default: true }]);
    for (const [who, status] of [['visitor', 403], ['member', 403], ['anonymous', 401]] as const) {
      const res = await call('PATCH', SETTINGS, who, a, { tipSettings: { allowCustomerTip: false } });
      expect(res.statusCode, who).toBe(status);
    }
    expect((await call('POST', `${SETTINGS}/query`, 'apiKey', a, {})).json().tipSettings[0].allowCustomerTip).toBe(true);
  });

  it('reads the tip settings and previews a tip: any token of the site, each site its own; no token is refused', async () => {
    for (const who of ['visitor', 'member', 'contributor', 'owner', 'apiKey'] as const) {
      const read = await call('POST', `${SETTINGS}/query`, who, a, {});
      expect([read.statusCode, read.json().tipSettings?.[0]?.allowCustomerTip], who).toEqual([200, true]);
      const preview = await call('POST', `${TIPS}/preview`, who, a, { lineItemInfo: [{ price: '20.00' }], tipChoice: { tipType: 'PERCENTAGE', value: '15' } });
      expect([preview.statusCode, preview.json().tip?.amount], who).toEqual([200, '3.00']);
    }
    for (const who of ['owner', 'apiKey'] as const) {
      expect((await call('POST', `${SETTINGS}/query`, who, b, {})).json().tipSettings[0].allowCustomerTip, `other site's ${who}`).toBe(false);
      const preview = await call('POST', `${TIPS}/preview`, who, b, { lineItemInfo: [{ price: '20.00' }], tipChoice: { tipType: 'PERCENTAGE', value: '15' } });
      expect([preview.statusCode, preview.json().details?.applicationError?.code], `other site's ${who}`).toEqual([400, 'INVALID_TIP']);
    }
    expect((await call('POST', `${SETTINGS}/query`, 'anonymous', a, {})).statusCode).toBe(401);
    expect((await call('POST', `${TIPS}/preview`, 'anonymous', a, { lineItemInfo: [{ price: '1.00' }], tipChoice: { tipType: 'CUSTOM', value: '1' } })).statusCode).toBe(401);
  });

  it('chooses a checkout\'s tip: its shopper and this site\'s staff; another shopper and another site do not find it; no token is refused', async () => {
    for (const who of ['visitor', 'contributor', 'owner', 'apiKey'] as const) {
      const set = await call('PATCH', `${TIPS}/choice`, who, a, { purchaseFlowId: checkoutId, tipChoice: { tipType: 'CUSTOM', value: '2.00' } });
      expect([set.statusCode, set.json().tipChoice], `${who}: ${set.body}`).toEqual([200, { tipType: 'CUSTOM', value: '2.00' }]);
      const get = await call('GET', `${TIPS}/choice/${checkoutId}`, who, a);
      expect(get.statusCode, who).toBe(200);
    }
    for (const [who, site] of [['member', a], ['owner', b], ['apiKey', b], ['visitor', b]] as const) {
      const set = await call('PATCH', `${TIPS}/choice`, who, site, { purchaseFlowId: checkoutId, tipChoice: { tipType: 'CUSTOM', value: '9.00' } });
      expect([set.statusCode, set.json().details?.applicationError?.code], `${who} of ${site === a ? 'this' : 'another'} site`).toEqual([404, 'CHECKOUT_NOT_FOUND']);
      expect((await call('GET', `${TIPS}/choice/${checkoutId}`, who, site)).statusCode).toBe(404);
    }
    expect((await call('PATCH', `${TIPS}/choice`, 'anonymous', a, { purchaseFlowId: checkoutId, tipChoice: { tipType: 'CUSTOM', value: '9.00' } })).statusCode).toBe(401);
    expect((await call('GET', `${TIPS}/choice/${checkoutId}`, 'anonymous', a)).statusCode).toBe(401);
    expect((await call('GET', `${TIPS}/choice/${checkoutId}`, 'visitor', a)).json().tipChoice).toEqual({ tipType: 'CUSTOM', value: '2.00' });
  });

  it('reads an order\'s tip: this site\'s staff; another site\'s owner and key do not find it; shoppers and no token are refused', async () => {
    for (const who of STAFF) {
      const res = await call('GET', `${TIPS}/order/${orderId}`, who, a);
      expect([res.statusCode, res.json().tip?.amount], `${who}: ${res.body}`).toEqual([200, '1.50']);
    }
    for (const who of ['owner', 'apiKey'] as const) expect((await call('GET', `${TIPS}/order/${orderId}`, who, b)).statusCode, `other site's ${who}`).toBe(404);
    for (const [who, status] of [['visitor', 403], ['member', 403], ['anonymous', 401]] as const) {
      expect((await call('GET', `${TIPS}/order/${orderId}`, who, a)).statusCode, who).toBe(status);
    }
  });
});
