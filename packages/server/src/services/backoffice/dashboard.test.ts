import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { catalogLine, createProduct, placeOrder } from '../../test/commerce.js';
import type { Dashboard } from './service.js';

let clock = new Date('2026-03-15T12:00:00Z');
const now = () => clock;
let t: TestApp;

beforeAll(async () => {
  t = await testApp({ now });
});
afterAll(async () => t.close());

/** The dashboard as it goes over the wire: the service's figures, with orders in their wire summary. */
type DashboardBody = Omit<Dashboard, 'recentOrders' | 'lowStock'> & {
  recentOrders: { id: string; number: string; buyerEmail?: string; total: string; paymentStatus: string; fulfillmentStatus: string }[];
  lowStock: { productId: string; name: string; quantity: number }[];
};

async function dashboard(s: BackOfficeSite, query = ''): Promise<DashboardBody> {
  // API keys do not expire as the test clock moves on; tokens do.
  const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/dashboard${query}`, headers: s.headers.apiKey });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as DashboardBody;
}

async function orderAt(s: BackOfficeSite, at: string, productId: string, quantity: number, email = 'buyer@example.com'): Promise<string> {
  clock = new Date(at);
  const visitor = await t.visitorToken(s.site);
  return (await placeOrder(t.app, s.site, visitor, [catalogLine(productId, quantity)], { email })).orderId;
}

describe('GET /bodega/v1/dashboard', () => {
  let s: BackOfficeSite;
  let paidId: string;

  beforeAll(async () => {
    clock = new Date('2026-03-01T00:00:00Z');
    s = await backOfficeSite(t);
    const mug = await createProduct(t.app, s.site, { name: 'Mug', priceData: { price: 12.5 }, stock: { trackInventory: true, quantity: 100 } });
    await createProduct(t.app, s.site, { name: 'Rare vase', priceData: { price: 80 }, stock: { trackInventory: true, quantity: 2 } });
    await createProduct(t.app, s.site, { name: 'Untracked poster', priceData: { price: 5 } });
    await orderAt(s, '2026-02-20T10:00:00Z', mug.id, 1); // last month
    await orderAt(s, '2026-03-10T10:00:00Z', mug.id, 2, 'early@example.com'); // 25.00
    paidId = await orderAt(s, '2026-03-15T03:30:00Z', mug.id, 1, 'late@example.com'); // 12.50; 14 March in New York
    await orderAt(s, '2026-03-15T11:00:00Z', mug.id, 4, 'today@example.com'); // 50.00
    clock = new Date('2026-03-15T12:00:00Z');
    const paid = await t.app.inject({ method: 'POST', url: `/ecom/v1/payments-collector/orders/${paidId}/mark-as-paid`, headers: s.headers.apiKey, payload: {} });
    expect(paid.statusCode, paid.body).toBe(200);
  });

  it('counts orders and revenue per day, today and this month, with the average over the range', async () => {
    const d = await dashboard(s, '?from=2026-03-09&to=2026-03-15');
    expect(d.currency).toBe('USD');
    expect(d.days.map((x) => x.date)).toEqual(['2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13', '2026-03-14', '2026-03-15']);
    expect(d.days.find((x) => x.date === '2026-03-10')).toEqual({ date: '2026-03-10', orders: 1, revenue: '25.00', refunds: '0.00', net: '25.00' });
    expect(d.days.find((x) => x.date === '2026-03-15')).toEqual({ date: '2026-03-15', orders: 2, revenue: '62.50', refunds: '0.00', net: '62.50' });
    expect(d.days.find((x) => x.date === '2026-03-11')).toEqual({ date: '2026-03-11', orders: 0, revenue: '0.00', refunds: '0.00', net: '0.00' });
    expect(d.today).toEqual({ orders: 2, revenue: '62.50', refunds: '0.00', net: '62.50' });
    expect(d.thisMonth).toEqual({ orders: 3, revenue: '87.50', refunds: '0.00', net: '87.50' });
    expect(d.averageOrderValue).toBe('29.17'); // 87.50 / 3, half-even
  });

  it('answers a custom range of up to 366 days with its totals, and an empty range with zeros', async () => {
    const year = await dashboard(s, '?from=2025-03-15&to=2026-03-15');
    expect(year.days).toHaveLength(366);
    expect(year.range).toEqual({ from: '2025-03-15', to: '2026-03-15', timeZone: 'UTC', orders: 4, revenue: '100.00', refunds: '0.00', net: '100.00' });
    const empty = await dashboard(s, '?from=2026-01-01&to=2026-01-31');
    expect(empty.days).toHaveLength(31);
    expect(empty.days.every((x) => x.orders === 0 && x.revenue === '0.00')).toBe(true);
    expect(empty.range).toMatchObject({ orders: 0, revenue: '0.00', refunds: '0.00', net: '0.00' });
    expect(empty.averageOrderValue).toBe('0.00');
    const oneDay = await dashboard(s, '?from=2026-03-10&to=2026-03-10');
    expect(oneDay.days).toEqual([{ date: '2026-03-10', orders: 1, revenue: '25.00', refunds: '0.00', net: '25.00' }]);
  });

  it('refuses a range longer than 366 days, backwards or with a bad date, with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['?from=2025-03-14&to=2026-03-15', 'from'],
      ['?from=2026-03-16&to=2026-03-15', 'from'],
      ['?from=2026-02-29&to=2026-03-15', 'from'],
      ['?from=2026-03-01&to=2026-13-01', 'to'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/dashboard${query}`, headers: s.headers.apiKey });
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(JSON.stringify(res.json()), query).toContain(`"${field}`);
    }
  });

  it('counts days in the asked time zone', async () => {
    const d = await dashboard(s, '?from=2026-03-14&to=2026-03-15&timeZone=America/New_York');
    expect(d.days).toEqual([
      { date: '2026-03-14', orders: 1, revenue: '12.50', refunds: '0.00', net: '12.50' },
      { date: '2026-03-15', orders: 1, revenue: '50.00', refunds: '0.00', net: '50.00' },
    ]);
  });

  it('defaults to the last 30 days up to today', async () => {
    const d = await dashboard(s);
    expect(d.days).toHaveLength(30);
    expect(d.days[29].date).toBe('2026-03-15');
    expect(d.days[0].date).toBe('2026-02-14');
    expect(d.days.reduce((n, x) => n + x.orders, 0)).toBe(4);
  });

  it('shows unpaid and unfulfilled counts, the recent orders first and low stock', async () => {
    const d = await dashboard(s);
    expect(d.unpaidCount).toBe(3);
    expect(d.unfulfilledCount).toBe(4);
    expect(d.recentOrders.map((o) => o.buyerEmail)).toEqual(['today@example.com', 'late@example.com', 'early@example.com', 'buyer@example.com']);
    expect(d.recentOrders[0]).toMatchObject({ total: '50.00', paymentStatus: 'NOT_PAID', fulfillmentStatus: 'NOT_FULFILLED' });
    expect(d.recentOrders[1].paymentStatus).toBe('PAID');
    expect(d.lowStock.map((x) => [x.name, x.quantity])).toEqual([['Rare vase', 2]]);
  });

  it("never shows another site's orders", async () => {
    const other = await backOfficeSite(t);
    const d = await dashboard(other, '?from=2026-02-01&to=2026-03-15');
    expect(d.days.every((x) => x.orders === 0)).toBe(true);
    expect(d.recentOrders).toEqual([]);
    expect(d.unpaidCount).toBe(0);
  });
});

describe('dashboard with refunds', () => {
  it('shows gross sales on the order\'s day and each refund on the day it was made, with net sales, today, this month, per day and over the range', async () => {
    clock = new Date('2026-06-10T09:00:00Z');
    const s = await backOfficeSite(t);
    const lamp = await createProduct(t.app, s.site, { name: 'Lamp', priceData: { price: 40 } });
    const refunded = await orderAt(s, '2026-06-10T09:00:00Z', lamp.id, 1, 'back@example.com');
    await orderAt(s, '2026-06-10T10:00:00Z', lamp.id, 2, 'keeps@example.com');
    await orderAt(s, '2026-06-02T10:00:00Z', lamp.id, 1, 'early@example.com');
    clock = new Date('2026-06-10T11:00:00Z');
    const paid = await t.app.inject({ method: 'POST', url: `/ecom/v1/payments-collector/orders/${refunded}/mark-as-paid`, headers: s.headers.apiKey, payload: {} });
    expect(paid.statusCode, paid.body).toBe(200);
    const payments = (await t.app.inject({ method: 'GET', url: `/bodega/v1/orders/${refunded}/payments`, headers: s.headers.apiKey })).json() as { payments: { id: string }[] };
    const refund = async (amount: string) => t.app.inject({
      method: 'POST', url: `/ecom/v1/payments-collector/orders/${refunded}/trigger-refund`, headers: s.headers.apiKey,
      payload: { payments: [{ paymentId: payments.payments[0].id, amount: { amount } }] },
    });
    expect((await refund('15.05')).statusCode).toBe(200);

    const part = await dashboard(s, '?from=2026-06-09&to=2026-06-10');
    expect(part.today).toEqual({ orders: 2, revenue: '120.00', refunds: '15.05', net: '104.95' });
    expect(part.days).toEqual([
      { date: '2026-06-09', orders: 0, revenue: '0.00', refunds: '0.00', net: '0.00' },
      { date: '2026-06-10', orders: 2, revenue: '120.00', refunds: '15.05', net: '104.95' },
    ]);
    expect(part.thisMonth).toEqual({ orders: 3, revenue: '160.00', refunds: '15.05', net: '144.95' });

    // Two days later (late on 11 June in New York), the rest: it counts on the day it was made, not on the order's.
    clock = new Date('2026-06-12T02:30:00Z');
    expect((await refund('24.95')).statusCode).toBe(200);
    const later = await dashboard(s, '?from=2026-06-01&to=2026-06-12');
    expect(later.days.find((d) => d.date === '2026-06-10')).toEqual({ date: '2026-06-10', orders: 2, revenue: '120.00', refunds: '15.05', net: '104.95' });
    expect(later.days.find((d) => d.date === '2026-06-12')).toEqual({ date: '2026-06-12', orders: 0, revenue: '0.00', refunds: '24.95', net: '-24.95' });
    expect(later.today).toEqual({ orders: 0, revenue: '0.00', refunds: '24.95', net: '-24.95' });
    expect(later.thisMonth).toEqual({ orders: 3, revenue: '160.00', refunds: '40.00', net: '120.00' });
    expect(later.range).toMatchObject({ orders: 3, revenue: '160.00', refunds: '40.00', net: '120.00' });
    expect(later.averageOrderValue).toBe('53.33'); // gross 160.00 / 3
    // A range without the order's day still has the refund made in it.
    expect((await dashboard(s, '?from=2026-06-11&to=2026-06-12')).range).toMatchObject({ orders: 0, revenue: '0.00', refunds: '24.95', net: '-24.95' });
    const newYork = await dashboard(s, '?from=2026-06-10&to=2026-06-12&timeZone=America/New_York');
    expect(newYork.days.map((d) => [d.date, d.refunds])).toEqual([['2026-06-10', '15.05'], ['2026-06-11', '24.95'], ['2026-06-12', '0.00']]);
  });

  it('leaves out the refunds of an order canceled after them, as it leaves out the order', async () => {
    clock = new Date('2026-07-01T09:00:00Z');
    const s = await backOfficeSite(t);
    const lamp = await createProduct(t.app, s.site, { name: 'Lamp', priceData: { price: 40 } });
    const orderId = await orderAt(s, '2026-07-01T09:00:00Z', lamp.id, 1);
    const call = (url: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url, headers: s.headers.apiKey, payload });
    expect((await call(`/ecom/v1/payments-collector/orders/${orderId}/mark-as-paid`, {})).statusCode).toBe(200);
    const payments = (await t.app.inject({ method: 'GET', url: `/bodega/v1/orders/${orderId}/payments`, headers: s.headers.apiKey })).json() as { payments: { id: string }[] };
    clock = new Date('2026-07-02T09:00:00Z');
    expect((await call(`/ecom/v1/payments-collector/orders/${orderId}/trigger-refund`, { payments: [{ paymentId: payments.payments[0].id, amount: { amount: '10.00' } }] })).statusCode).toBe(200);
    expect((await dashboard(s, '?from=2026-07-01&to=2026-07-02')).range).toMatchObject({ orders: 1, revenue: '40.00', refunds: '10.00', net: '30.00' });
    const canceled = await call(`/ecom/v1/orders/${orderId}/cancel`, {});
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect((await dashboard(s, '?from=2026-07-01&to=2026-07-02')).range).toMatchObject({ orders: 0, revenue: '0.00', refunds: '0.00', net: '0.00' });
  });
});

describe('GET /bodega/v1/orders/:id/payments', () => {
  it('shows what is left to refund of each payment, which a partial trigger-refund lowers', async () => {
    clock = new Date('2026-04-01T09:00:00Z');
    const s = await backOfficeSite(t);
    const lamp = await createProduct(t.app, s.site, { name: 'Lamp', priceData: { price: 40 } });
    const visitor = await t.visitorToken(s.site);
    const { orderId } = await placeOrder(t.app, s.site, visitor, [catalogLine(lamp.id, 1)], { email: 'lamp@example.com' });
    const payments = async (headers = s.headers.apiKey) => t.app.inject({ method: 'GET', url: `/bodega/v1/orders/${orderId}/payments`, headers });
    expect((await payments()).json()).toEqual({ currency: 'USD', refundable: '0.00', payments: [] });

    const paid = await t.app.inject({ method: 'POST', url: `/ecom/v1/payments-collector/orders/${orderId}/mark-as-paid`, headers: s.headers.apiKey, payload: {} });
    expect(paid.statusCode, paid.body).toBe(200);
    const before = (await payments()).json() as { refundable: string; payments: { id: string; amount: string; refunded: string; refundable: string }[] };
    expect(before.refundable).toBe('40.00');
    expect(before.payments).toEqual([expect.objectContaining({ amount: '40.00', refunded: '0.00', refundable: '40.00', method: 'offline' })]);

    const refund = (amount: string) => t.app.inject({
      method: 'POST', url: `/ecom/v1/payments-collector/orders/${orderId}/trigger-refund`, headers: s.headers.apiKey,
      payload: { payments: [{ paymentId: before.payments[0].id, amount: { amount } }] },
    });
    expect((await refund('12.35')).statusCode).toBe(200);
    const after = (await payments()).json() as typeof before;
    expect(after.refundable).toBe('27.65');
    expect(after.payments[0]).toMatchObject({ refunded: '12.35', refundable: '27.65' });
    const tooMuch = await refund('27.66');
    expect(tooMuch.statusCode, tooMuch.body).toBe(400);
    expect(tooMuch.json()).toMatchObject({ details: { applicationError: { code: 'AMOUNT_EXCEEDS_REFUNDABLE' } } });

    // Once the server would refuse any refund, the view offers none and says why, as trigger-refund would.
    expect((await refund('27.65')).statusCode).toBe(200);
    const refunded = (await payments()).json() as typeof before & { payments: { reason?: string }[] };
    expect(refunded.refundable).toBe('0.00');
    expect(refunded.payments[0]).toMatchObject({ refunded: '40.00', refundable: '0.00', reason: 'ALREADY_REFUNDED' });
    const refused = await refund('0.01');
    expect(refused.json()).toMatchObject({ details: { applicationError: { code: refunded.payments[0].reason } } });

    const other = await backOfficeSite(t);
    const foreign = await payments(other.headers.apiKey);
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(foreign.json()).toMatchObject({ details: { applicationError: { code: 'ORDER_NOT_FOUND' } } });
  });
});

describe('GET /bodega/v1/search', () => {
  it('finds products by name, orders by number or e-mail and members by e-mail, in the caller site only', async () => {
    clock = new Date('2026-04-01T10:00:00Z');
    const s = await backOfficeSite(t);
    const other = await backOfficeSite(t);
    const lamp = await createProduct(t.app, s.site, { name: 'Brass lamp', priceData: { price: 40 } });
    await createProduct(t.app, s.site, { name: 'Lamp shade', priceData: { price: 15 } });
    await createProduct(t.app, other.site, { name: 'Lamp of another shop', priceData: { price: 15 } });
    const orderId = await orderAt(s, '2026-04-01T10:00:00Z', lamp.id, 1, 'zoe.lamplighter@example.com');
    const order = await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: s.headers.owner });
    const number = (order.json() as { order: { number: string } }).order.number;

    const search = async (q: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/search?q=${encodeURIComponent(q)}`, headers: s.headers.contributor });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { products: { id: string; name: string }[]; orders: { id: string; number: string; buyerEmail?: string }[]; members: { id: string; email: string }[] };
    };
    const lamps = await search('lamp');
    expect(lamps.products.map((p) => p.name)).toEqual(['Lamp shade', 'Brass lamp']);
    expect((await search(number)).orders).toEqual([{ id: orderId, number, buyerEmail: 'zoe.lamplighter@example.com' }]);
    expect((await search(`#${number}`)).orders.map((o) => o.id)).toEqual([orderId]);
    expect((await search('ZOE.lamp')).orders.map((o) => o.id)).toEqual([orderId]);
    expect((await search('contributor.')).members.map((m) => m.id)).toEqual([s.contributorId]);
    expect(await search('100%_')).toEqual({ products: [], orders: [], members: [] });
  });
});

describe('CSV exports', () => {
  let s: BackOfficeSite;
  beforeAll(async () => {
    clock = new Date('2026-05-01T10:00:00Z');
    s = await backOfficeSite(t);
    const created = await t.app.inject({ method: 'POST', url: '/stores/v1/collections', headers: s.headers.owner, payload: { collection: { name: 'Kitchen' } } });
    const kitchen = (created.json() as { collection: { id: string } }).collection.id;
    const kettle = await createProduct(t.app, s.site, { name: 'Kettle, "steel"', priceData: { price: 30 }, ribbon: 'New', stock: { trackInventory: true, quantity: 7 } });
    await t.app.inject({ method: 'POST', url: `/stores/v1/collections/${kitchen}/productIds`, headers: s.headers.owner, payload: { productIds: [kettle.id] } });
    await orderAt(s, '2026-05-01T10:00:00Z', kettle.id, 1, 'a@example.com');
    await orderAt(s, '2026-05-02T10:00:00Z', kettle.id, 2, 'b@example.com');
    clock = new Date('2026-05-03T10:00:00Z');
  });

  it('streams products with the import columns, quoting what needs it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/bodega/v1/exports/products.csv', headers: s.headers.apiKey });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="products-2026-05-03.csv"');
    const [header, row] = res.body.trim().split('\n');
    expect(header).toBe(['id,name,slug,description,price,discountType,discountValue,sku,weight,visible,ribbon,brand,trackInventory,quantity,inStock,collections,images,imageTitles,imageAltTexts,productType,infoSections,customTextFields,manageVariants,hiddenChoices,outOfStockChoices',
      ...[1, 2, 3, 4, 5, 6].map((n) => `option${n}Name,option${n}Value`), 'variantPrice,variantSku,variantWeight,variantQuantity,variantInStock,variantVisible'].join(','));
    expect(row).toContain('"Kettle, ""steel"""');
    expect(row).toContain(',30.00,NONE,');
    expect(row).toContain(',New,,true,4,true,kitchen,'); // 7 less the 3 the two orders took
  });

  it("exports the orders list's filtered orders, newest first", async () => {
    const all = await t.app.inject({ method: 'GET', url: '/bodega/v1/exports/orders.csv', headers: s.headers.apiKey });
    const lines = all.body.trim().split('\n');
    expect(lines[0].startsWith('number,id,createdDate,status,paymentStatus,fulfillmentStatus,buyerEmail,currency')).toBe(true);
    expect(lines.slice(1).map((l) => l.split(',')[6])).toEqual(['b@example.com', 'a@example.com']);
    expect(lines[1]).toContain(',60.00,0.00,0.00,2,"2 x Kettle, ""steel""",Standard delivery,');
    const filtered = await t.app.inject({ method: 'GET', url: '/bodega/v1/exports/orders.csv?from=2026-05-02&q=B%40', headers: s.headers.apiKey });
    expect(filtered.body.trim().split('\n').slice(1).map((l) => l.split(',')[6])).toEqual(['b@example.com']);
    const none = await t.app.inject({ method: 'GET', url: '/bodega/v1/exports/orders.csv?paymentStatus=PAID', headers: s.headers.apiKey });
    expect(none.body.trim().split('\n')).toHaveLength(1);
  });

  it('exports members', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/bodega/v1/exports/members.csv', headers: s.headers.apiKey });
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('id,loginEmail,nickname,firstName,lastName,status,role,privacyStatus,activityStatus,createdDate,lastLoginDate');
    expect(lines.slice(1).map((l) => l.split(',')[1]).sort()).toEqual([s.ownerEmail, `contributor.${s.ownerEmail.slice(6)}`, `member.${s.ownerEmail.slice(6)}`].sort());
  });
});

describe('bulk product edits (Stores v1)', () => {
  it('sets and adjusts price for many products, reporting each one', async () => {
    clock = new Date('2026-06-01T10:00:00Z');
    const s = await backOfficeSite(t);
    const other = await backOfficeSite(t);
    const a = await createProduct(t.app, s.site, { name: 'A', priceData: { price: 10 } });
    const b = await createProduct(t.app, s.site, { name: 'B', priceData: { price: 19.99 } });
    const theirs = await createProduct(t.app, other.site, { name: 'Theirs', priceData: { price: 5 } });
    const price = async (id: string) => ((await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${id}`, headers: s.headers.owner })).json() as { product: { priceData: { price: number } } }).product.priceData.price;

    const set = await t.app.inject({ method: 'POST', url: '/stores/v1/bulk/products/update', headers: s.headers.owner, payload: { ids: [a.id, b.id, theirs.id], set: { price: 12 } } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      results: [
        { itemMetadata: { id: a.id, originalIndex: 0, success: true } },
        { itemMetadata: { id: b.id, originalIndex: 1, success: true } },
        { itemMetadata: { id: theirs.id, originalIndex: 2, success: false, error: { code: 'PRODUCT_NOT_FOUND' } } },
      ],
      bulkActionMetadata: { totalSuccesses: 2, totalFailures: 1 },
    });
    expect([await price(a.id), await price(b.id)]).toEqual([12, 12]);

    const up = await t.app.inject({ method: 'POST', url: '/_api/catalog-server/v1/bulk/products/adjust-properties', headers: s.headers.contributor, payload: { ids: [a.id], adjust: { price: { percentage: { rate: 12.5 } } } } });
    expect(up.statusCode, up.body).toBe(200);
    expect(await price(a.id)).toBe(13.5);
    await t.app.inject({ method: 'POST', url: '/stores/v1/bulk/products/adjust-properties', headers: s.headers.owner, payload: { ids: [a.id, b.id], adjust: { price: { amount: -2.25 } } } });
    expect([await price(a.id), await price(b.id)]).toEqual([11.25, 9.75]);
    const below = await t.app.inject({ method: 'POST', url: '/stores/v1/bulk/products/adjust-properties', headers: s.headers.owner, payload: { ids: [b.id], adjust: { price: { amount: -100 } } } });
    expect(below.json()).toMatchObject({ results: [{ itemMetadata: { success: false, error: { code: 'INVALID_ARGUMENT' } } }] });
    expect(await price(b.id)).toBe(9.75);
    expect((await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${theirs.id}`, headers: other.headers.owner })).json()).toMatchObject({ product: { priceData: { price: 5 } } });
  });
});
