import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite } from '../../test/backoffice.js';

let t: TestApp;

beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t.close());

const URL = '/_api/bodega/v1/commerce-settings';

describe('/_api/bodega/v1/commerce-settings', () => {
  it('answers the defaults for a new site, replaces only the keys a PATCH names, and keeps each site its own', async () => {
    const s = await backOfficeSite(t);
    const other = await backOfficeSite(t);
    const first = await t.app.inject({ method: 'GET', url: URL, headers: s.headers.owner });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ settings: { inventoryUpdateTrigger: 'ON_ORDER_PLACED', shippingRegions: [{ id: 'worldwide', country: '*' }], pickupOptions: [], tax: null } });

    const pickupOptions = [{ code: 'shop', title: 'At the shop', cost: '2.50', instructions: 'Ring twice' }];
    const patched = await t.app.inject({ method: 'PATCH', url: URL, headers: s.headers.contributor, payload: { settings: { pickupOptions, inventoryUpdateTrigger: 'ON_ORDER_PAID' } } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ settings: { pickupOptions, inventoryUpdateTrigger: 'ON_ORDER_PAID', shippingRegions: [{ id: 'worldwide' }] } });

    const tax = { pricesIncludeTax: true, taxShipping: false, rates: [{ country: 'GB', rate: '20', name: 'VAT' }] };
    await t.app.inject({ method: 'PATCH', url: URL, headers: s.headers.owner, payload: { settings: { tax } } });
    const read = (await t.app.inject({ method: 'GET', url: URL, headers: s.headers.apiKey })).json() as { settings: Record<string, unknown> };
    expect(read.settings).toMatchObject({ tax, pickupOptions, inventoryUpdateTrigger: 'ON_ORDER_PAID' });
    const theirs = (await t.app.inject({ method: 'GET', url: URL, headers: other.headers.owner })).json() as { settings: Record<string, unknown> };
    expect(theirs.settings).toMatchObject({ pickupOptions: [], tax: null, inventoryUpdateTrigger: 'ON_ORDER_PLACED' });
  });

  it('names every wrong field at once and changes nothing', async () => {
    const s = await backOfficeSite(t);
    const res = await t.app.inject({
      method: 'PATCH', url: URL, headers: s.headers.owner,
      payload: { settings: {
        shippingRegions: [{ id: 'us', name: 'US', country: 'US', rules: [{ code: 'std', title: 'Standard', rate: '4.999', type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: '1.5' }] }],
        pickupOptions: [{ code: 'p', title: 'P', cost: '1.001' }],
      } },
    });
    expect(res.statusCode, res.body).toBe(400);
    const fields = (res.json() as { details: { validationError: { fieldViolations: { field: string }[] } } }).details.validationError.fieldViolations.map((v) => v.field);
    expect(fields.sort()).toEqual(['pickupOptions[0].cost', 'shippingRegions[0].rules[0].rate', 'shippingRegions[0].rules[0].threshold']);
    const read = (await t.app.inject({ method: 'GET', url: URL, headers: s.headers.owner })).json() as { settings: { pickupOptions: unknown[] } };
    expect(read.settings.pickupOptions).toEqual([]);
  });
});
