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

  it('keeps the weight unit, each region’s own tax-shipping switch and a pickup address', async () => {
    const s = await backOfficeSite(t);
    const settings = {
      weightUnit: 'LB',
      shippingRegions: [
        { id: 'us', name: 'US', country: 'US', taxShipping: true, rules: [{ code: 'std', title: 'Standard', rate: '5', type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: '0' }] },
        { id: 'rest', name: 'Rest', country: '*', taxShipping: false, rules: [{ code: 'intl', title: 'International', rate: '20', type: 'BY_TOTAL_WEIGHT', operator: 'LTE', threshold: '4.5' }] },
      ],
      pickupOptions: [{ code: 'shop', title: 'At the shop', cost: '0', address: { country: 'US', subdivision: 'US-NY', city: 'Brooklyn', addressLine: '1 Main St', postalCode: '11249' } }],
    };
    const patched = await t.app.inject({ method: 'PATCH', url: URL, headers: s.headers.owner, payload: { settings } });
    expect(patched.statusCode, patched.body).toBe(200);
    const read = (await t.app.inject({ method: 'GET', url: URL, headers: s.headers.owner })).json() as { settings: Record<string, unknown> };
    expect(read.settings).toMatchObject(settings);
  });

  it('refuses a weight unit, a tax-shipping switch or a country it does not know, with a 400 naming the field', async () => {
    const s = await backOfficeSite(t);
    const rule = { code: 'std', title: 'Standard', rate: '5', type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: '0' };
    const cases: [Record<string, unknown>, string][] = [
      [{ weightUnit: 'STONE' }, 'weightUnit'],
      [{ shippingRegions: [{ id: 'us', name: 'US', country: 'US', taxShipping: 'yes', rules: [rule] }] }, 'taxShipping'],
      [{ shippingRegions: [{ id: 'us', name: 'US', country: 'USA', rules: [rule] }] }, 'shippingRegions[0].country'],
      [{ pickupOptions: [{ code: 'shop', title: 'Shop', cost: '0', address: { country: 'Brooklyn' } }] }, 'pickupOptions[0].address.country'],
      [{ pickupOptions: [{ code: 'shop', title: 'Shop', cost: '0', address: { country: 'us', city: 'Brooklyn' } }] }, 'pickupOptions[0].address.country'],
      [{ pickupOptions: [{ code: 'shop', title: 'Shop', cost: '0', address: { city: 'x'.repeat(101) } }] }, 'city'],
    ];
    for (const [settings, field] of cases) {
      const res = await t.app.inject({ method: 'PATCH', url: URL, headers: s.headers.owner, payload: { settings } });
      expect(res.statusCode, JSON.stringify(settings)).toBe(400);
      expect(res.json(), JSON.stringify(settings)).toMatchObject({ details: { validationError: { fieldViolations: expect.arrayContaining([expect.objectContaining({ field: expect.stringContaining(field) })]) } } });
    }
    const read = (await t.app.inject({ method: 'GET', url: URL, headers: s.headers.owner })).json() as { settings: Record<string, unknown> };
    expect(read.settings).toMatchObject({ weightUnit: 'KG', shippingRegions: [{ id: 'worldwide', country: '*' }], pickupOptions: [] });
  });
});
