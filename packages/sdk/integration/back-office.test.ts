/**
 * `backOffice` and `backOfficeSettings` of @bodega/sdk against a real server, with the site's API
 * key: every call's path and shape as the back office uses them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backOffice, backOfficeSettings, BodegaError, products } from '@bodega/sdk';
import { adminClient, startServer, type Server, type TestSite } from './support.js';

let server: Server;
let site: TestSite;
let admin: ReturnType<typeof clientOf>;

const clientOf = (s: TestSite) => adminClient(server.origin, s, { backOffice, backOfficeSettings, products });

beforeAll(async () => {
  server = await startServer();
  site = await server.createSite();
  admin = clientOf(site);
});
afterAll(async () => server.close());

describe('backOffice', () => {
  it('reads me, the dashboard and search', async () => {
    expect(await admin.backOffice.me()).toMatchObject({ role: 'APP', site: { siteId: site.siteId, currency: 'USD' } });
    const dashboard = await admin.backOffice.dashboard({ timeZone: 'Europe/Paris' });
    expect(dashboard.days).toHaveLength(30);
    expect(dashboard.averageOrderValue).toBe('0.00');
    const week = await admin.backOffice.dashboard({ from: '2026-01-01', to: '2026-01-07', timeZone: 'UTC' });
    expect(week.range).toEqual({ from: '2026-01-01', to: '2026-01-07', timeZone: 'UTC', orders: 0, revenue: '0.00', refunds: '0.00', net: '0.00' });
    expect(week.days).toHaveLength(7);
    await expect(admin.backOffice.dashboard({ from: '2026-01-08', to: '2026-01-07' })).rejects.toMatchObject({ status: 400 });
    await expect(admin.backOffice.orderPayments('no-such-order')).rejects.toMatchObject({ status: 404 });
    await admin.products.createProduct({ name: 'Teapot', productType: 'physical', priceData: { price: 20 } });
    expect((await admin.backOffice.search('tea')).products.map((p) => p.name)).toEqual(['Teapot']);
  });

  it('creates, lists and revokes API keys', async () => {
    const { apiKey, key } = await admin.backOffice.createApiKey('Shipping robot');
    expect(key.startsWith('bdg_')).toBe(true);
    expect((await admin.backOffice.listApiKeys()).apiKeys.map((k) => k.name)).toContain('Shipping robot');
    await admin.backOffice.revokeApiKey(apiKey.id);
    expect((await admin.backOffice.listApiKeys()).apiKeys.map((k) => k.id)).not.toContain(apiKey.id);
  });

  it('imports, polls the job, downloads the failures and exports', async () => {
    const { job } = await admin.backOffice.createImportJob({ target: 'products', format: 'csv', content: 'name,price\nKettle,30\nBroken,abc\n' });
    let current = job;
    const deadline = Date.now() + 30_000;
    while (current.status !== 'DONE' && current.status !== 'FAILED' && Date.now() < deadline) current = (await admin.backOffice.getImportJob(job.id)).job;
    expect(current).toMatchObject({ status: 'DONE', succeeded: 1, failed: 1 });
    const failures = await (await admin.backOffice.importFailuresCsv(job.id)).text();
    expect(failures.split('\n')[1]).toMatch(/^2,/);
    const exported = await admin.backOffice.exportCsv('products');
    expect(exported.headers.get('content-disposition')).toMatch(/products-\d{4}-\d{2}-\d{2}\.csv/);
    expect(await exported.text()).toContain('Kettle');
    const error = await admin.backOffice.exportCsv('orders', { paymentStatus: 'SOMETIMES' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodegaError);
    expect((error as BodegaError).status).toBe(400);
  });

  it('bulk-edits prices under the official names', async () => {
    const { product } = await admin.products.createProduct({ name: 'Cup', productType: 'physical', priceData: { price: 4 } });
    const id = product?._id as string;
    const set = await admin.backOffice.bulkUpdateProductsProperty([id], { price: 5 });
    expect(set.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 0 });
    expect(set.results?.[0].itemMetadata?._id).toBe(id);
    await admin.backOffice.bulkAdjustProductProperty({ price: { percentage: { rate: 10 } } }, [id]);
    expect((await admin.products.getProduct(id)).product?.priceData?.price).toBe(5.5);
  });

  it('reads the mail outbox', async () => {
    const { mails } = await admin.backOffice.listMails({ limit: 5 });
    expect(Array.isArray(mails)).toBe(true);
    const missing = await admin.backOffice.getMail('nope').catch((e: unknown) => e);
    expect((missing as BodegaError).status).toBe(404);
  });
});

describe('backOfficeSettings', () => {
  it('changes site and commerce settings, coupons and webhooks', async () => {
    expect((await admin.backOfficeSettings.updateSiteSettings({ name: 'Renamed', captchaRequired: true })).settings).toMatchObject({ name: 'Renamed', captchaRequired: true });
    expect((await admin.backOfficeSettings.getSiteSettings()).settings.name).toBe('Renamed');
    const commerce = await admin.backOfficeSettings.updateCommerceSettings({ inventoryUpdateTrigger: 'ON_ORDER_PAID' });
    expect(commerce.settings.inventoryUpdateTrigger).toBe('ON_ORDER_PAID');
    const { coupon } = await admin.backOfficeSettings.createCoupon({ name: 'Ten', code: 'TEN', percentOffRate: 10 });
    expect((await admin.backOfficeSettings.getCoupon(coupon.id)).coupon.specification.code).toBe('TEN');
    expect((await admin.backOfficeSettings.queryCoupons({ limit: 10 })).metadata.total).toBe(1);
    expect(await admin.backOfficeSettings.updateCoupon(coupon.id, { name: 'Twelve', percentOffRate: '12.5', usageLimit: null })).toEqual({});
    expect((await admin.backOfficeSettings.getCoupon(coupon.id)).coupon.specification).toMatchObject({ name: 'Twelve', percentOffRate: 12.5 });
    await admin.backOfficeSettings.deleteCoupon(coupon.id);
    expect((await admin.backOfficeSettings.queryCoupons({ limit: 10 })).metadata.total).toBe(0);
    const hooks = await admin.backOfficeSettings.listWebhooks();
    expect(hooks.subscriptions).toEqual([]);
    expect((await admin.backOfficeSettings.webhookPublicKey()).algorithm).toBe('RS256');
  });
});
