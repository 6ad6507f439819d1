import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { catalogLine, createProduct } from '../../test/commerce.js';
import { keepEveryEvent } from '../../test/webhooks.js';

const clock = new Date('2026-03-01T12:00:00Z');
let t: TestApp;
let s: BackOfficeSite;

beforeAll(async () => {
  t = await testApp({ now: () => clock });
  s = await backOfficeSite(t);
});
afterAll(async () => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
async function call(site: BackOfficeSite, method: Method, url: string, payload?: Record<string, unknown>) {
  return t.app.inject({ method, url, headers: site.headers.owner, ...(payload && { payload }) });
}

async function create(site: BackOfficeSite, specification: Record<string, unknown>): Promise<string> {
  const res = await call(site, 'POST', '/stores/v2/coupons', { specification });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: string }).id;
}

async function read(site: BackOfficeSite, id: string) {
  const res = await call(site, 'GET', `/stores/v2/coupons/${id}`);
  return { status: res.statusCode, spec: (res.json() as { coupon?: { specification: Record<string, unknown> } }).coupon?.specification };
}

describe('PATCH /stores/v2/coupons/{id}', () => {
  it('changes only the fields given, clears a field sent as null, and answers {}', async () => {
    const id = await create(s, { code: 'SPRING', name: 'Spring', moneyOffAmount: '5.00', minimumSubtotal: 20, usageLimit: 10, expirationTime: '2026-06-01T00:00:00Z' });
    const res = await call(s, 'PATCH', `/stores/v2/coupons/${id}`, { specification: { name: 'Spring sale', moneyOffAmount: '7.50', usageLimit: null } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({});
    const { spec } = await read(s, id);
    expect(spec).toEqual({ code: 'SPRING', name: 'Spring sale', moneyOffAmount: 7.5, minimumSubtotal: 20, expirationTime: '2026-06-01T00:00:00.000Z', active: true });
  });

  it('with a field mask, changes the masked fields only and clears a masked field left out', async () => {
    const id = await create(s, { code: 'MASKED', name: 'Masked', percentOffRate: 10, usageLimit: 3 });
    const res = await call(s, 'PATCH', `/_api/bodega/v1/coupons/${id}`, { specification: { name: 'Ignored', percentOffRate: '12.5' }, fieldMask: ['percentOffRate', 'specification.usageLimit'] });
    expect(res.statusCode, res.body).toBe(200);
    const { spec } = await read(s, id);
    expect(spec).toMatchObject({ name: 'Masked', percentOffRate: 12.5 });
    expect(spec).not.toHaveProperty('usageLimit');
    const string = await call(s, 'PATCH', `/stores/v2/coupons/${id}`, { specification: { active: false }, fieldMask: 'active' });
    expect(string.statusCode, string.body).toBe(200);
    expect((await read(s, id)).spec).toMatchObject({ active: false });
  });

  it('keeps a coupon of one kind, refuses a taken code, bad dates and unknown masks, all in the wire shape', async () => {
    const id = await create(s, { code: 'KIND', moneyOffAmount: 3, startTime: '2026-03-01T00:00:00Z' });
    await create(s, { code: 'TAKEN', percentOffRate: 5 });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ specification: { percentOffRate: 10 } }, 400, 'specification.percentOffRate'],
      [{ specification: { moneyOffAmount: '1.234' } }, 400, 'specification.moneyOffAmount'],
      [{ specification: { moneyOffAmount: 1, percentOffRate: 1 } }, 400, 'specification'],
      [{ specification: { expirationTime: '2026-02-01T00:00:00Z' } }, 400, 'specification.expirationTime'],
      [{ specification: { code: 'no spaces' } }, 400, ''],
      [{ specification: { name: '' } }, 400, ''],
      [{ specification: {}, fieldMask: ['dateCreated'] }, 400, 'fieldMask'],
      [{ specification: { percentOffRate: '0' } }, 400, 'specification.percentOffRate'],
    ];
    for (const [payload, status, field] of cases) {
      const res = await call(s, 'PATCH', `/stores/v2/coupons/${id}`, payload);
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(status);
      const violations = (res.json() as { details: { validationError?: { fieldViolations: { field: string }[] } } }).details.validationError?.fieldViolations ?? [];
      if (field) expect(violations.map((v) => v.field), JSON.stringify(payload)).toContain(field);
    }
    const taken = await call(s, 'PATCH', `/stores/v2/coupons/${id}`, { specification: { code: 'taken' } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ details: { applicationError: { code: 'COUPON_CODE_ALREADY_EXISTS' } } });
    expect((await read(s, id)).spec).toMatchObject({ code: 'KIND', moneyOffAmount: 3 });
  });

  it('answers 404 for a coupon of another site, and leaves it unchanged', async () => {
    const other = await backOfficeSite(t);
    const theirs = await create(other, { code: 'THEIRS', percentOffRate: 5 });
    const res = await call(s, 'PATCH', `/stores/v2/coupons/${theirs}`, { specification: { name: 'Mine now' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ details: { applicationError: { code: 'COUPON_NOT_FOUND' } } });
    expect((await call(s, 'DELETE', `/stores/v2/coupons/${theirs}`)).statusCode).toBe(404);
    expect((await read(other, theirs)).spec).toMatchObject({ name: 'THEIRS' });
  });

  it('applies the new value to a cart that uses the coupon', async () => {
    const site = await backOfficeSite(t);
    await keepEveryEvent(t.db, site.site.siteId);
    const id = await create(site, { code: 'CHANGE', percentOffRate: 10 });
    const pin = await createProduct(t.app, site.site, { name: 'Pin', priceData: { price: 20 } });
    const token = await t.visitorToken(site.site);
    const cart = (method: Method, path: string, payload?: Record<string, unknown>) =>
      t.app.inject({ method, url: `/ecom/v1/carts/current${path}`, headers: { authorization: token }, ...(payload && { payload }) });
    await cart('POST', '/add-to-cart', { lineItems: [catalogLine(pin.id)] });
    await cart('PATCH', '', { couponCode: 'CHANGE' });
    const total = async () => ((await cart('POST', '/estimate-totals', { calculateShipping: false })).json() as { priceSummary: { discount: { amount: string } } }).priceSummary.discount.amount;
    expect(await total()).toBe('2.00');
    await call(site, 'PATCH', `/stores/v2/coupons/${id}`, { specification: { percentOffRate: 25 } });
    expect(await total()).toBe('5.00');
    const events = await t.db.query<{ type: string }>("SELECT type FROM outbox_events WHERE site_id = $1 AND entity_id = $2 AND type LIKE 'coupon.%' ORDER BY type", [site.site.siteId, id]);
    expect(events.map((e) => e.type)).toEqual(['coupon.created', 'coupon.updated']);
  });
});

describe('DELETE /stores/v2/coupons/{id}', () => {
  it('deletes the coupon: it is gone from the list, its code is free, and a cart can no longer apply it', async () => {
    const site = await backOfficeSite(t);
    await keepEveryEvent(t.db, site.site.siteId);
    const id = await create(site, { code: 'GONE', percentOffRate: 10 });
    const res = await call(site, 'DELETE', `/_api/bodega/v1/coupons/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({});
    expect((await read(site, id)).status).toBe(404);
    expect((await call(site, 'DELETE', `/stores/v2/coupons/${id}`)).statusCode).toBe(404);
    const list = (await call(site, 'POST', '/stores/v2/coupons/query', {})).json() as { metadata: { total: number } };
    expect(list.metadata.total).toBe(0);

    const pin = await createProduct(t.app, site.site, { name: 'Pin', priceData: { price: 20 } });
    const token = await t.visitorToken(site.site);
    await t.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: { authorization: token }, payload: { lineItems: [catalogLine(pin.id)] } });
    const applied = await t.app.inject({ method: 'PATCH', url: '/ecom/v1/carts/current', headers: { authorization: token }, payload: { couponCode: 'GONE' } });
    expect(applied.statusCode).toBe(400);
    await create(site, { code: 'GONE', percentOffRate: 5 });
    const events = await t.db.query<{ type: string }>('SELECT type FROM outbox_events WHERE site_id = $1 AND entity_id = $2 ORDER BY type', [site.site.siteId, id]);
    expect(events.map((e) => e.type)).toEqual(['coupon.created', 'coupon.deleted']);
  });
});
