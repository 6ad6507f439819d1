// Every audited staff or API-key action leaves exactly one entry, written with its change; a
// change that rolls back leaves none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { catalogLine, createProduct, placeOrder } from '../../test/commerce.js';
import { withTransaction } from '../../platform/context.js';
import { recordAudit } from '../../platform/audit.js';
import type { RequestContext } from '../../platform/caller.js';

let t: TestApp;
const clock = new Date('2026-05-01T10:00:00Z');

beforeAll(async () => {
  t = await testApp({ now: () => clock });
});
afterAll(async () => t.close());

interface Row {
  entry_id: string; action: string; object_type: string; object_id: string; actor_kind: string; actor_id: string | null;
  actor_role: string | null; actor_email: string | null; before: unknown; after: unknown; ip: string | null; request_id: string | null;
}

async function entries(siteId: string): Promise<Row[]> {
  return t.db.query<Row & Record<string, unknown>>(
    'SELECT entry_id, action, object_type, object_id, actor_kind, actor_id, actor_role, actor_email, before, after, ip, request_id FROM audit_log WHERE site_id = $1 ORDER BY recorded_at, entry_id',
    [siteId]);
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Runs one call, expects success and exactly one new entry, and returns it with the answer. */
async function auditedCall(s: BackOfficeSite, who: 'owner' | 'apiKey', method: Method, url: string, payload?: unknown): Promise<{ entry: Row; res: LightMyRequestResponse }> {
  const before = await entries(s.site.siteId);
  const res = await t.app.inject({ method, url, headers: s.headers[who], ...(payload !== undefined && { payload: payload as Record<string, unknown> }) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  const after = await entries(s.site.siteId);
  expect(after.length, `${method} ${url} should add one entry`).toBe(before.length + 1);
  const entry = after.find((e) => !before.some((b) => b.entry_id === e.entry_id))!;
  expect(entry.request_id).toBe(res.headers['x-wix-request-id']);
  expect(entry.ip).toBe('127.0.0.1');
  if (who === 'owner') expect(entry).toMatchObject({ actor_kind: 'MEMBER', actor_id: s.ownerId, actor_role: 'OWNER', actor_email: s.ownerEmail });
  else expect(entry).toMatchObject({ actor_kind: 'API_KEY', actor_email: null, actor_role: null });
  return { entry, res };
}

describe('each audited action leaves one entry with its actor, object and before → after', () => {
  let s: BackOfficeSite;
  beforeAll(async () => {
    s = await backOfficeSite(t);
  });

  it('API keys: created and revoked by the owner', async () => {
    const { entry, res } = await auditedCall(s, 'owner', 'POST', '/bodega/v1/api-keys', { name: 'Till' });
    const keyId = (res.json() as { apiKey: { id: string } }).apiKey.id;
    expect(entry).toMatchObject({ action: 'api_key.created', object_type: 'api_key', object_id: keyId, after: { name: 'Till' } });
    const revoked = await auditedCall(s, 'owner', 'DELETE', `/bodega/v1/api-keys/${keyId}`);
    expect(revoked.entry).toMatchObject({ action: 'api_key.revoked', object_type: 'api_key', object_id: keyId });
  });

  it('site settings and domains: only what changed, before and after', async () => {
    const domain = `audit-${s.site.siteId.slice(0, 8)}.example`;
    const { entry } = await auditedCall(s, 'owner', 'PATCH', '/_api/bodega/v1/site-settings', { settings: { name: 'Renamed shop', domains: [domain], captchaRequired: false } });
    expect(entry).toMatchObject({ action: 'site_settings.updated', object_type: 'site_settings', object_id: s.site.siteId });
    expect(entry.before).toEqual({ name: expect.stringMatching(/^Test site/) as string, domains: [] });
    expect(entry.after).toEqual({ name: 'Renamed shop', domains: [domain] });
  });

  it('commerce settings: the replaced settings before and after', async () => {
    const { entry } = await auditedCall(s, 'apiKey', 'PATCH', '/_api/bodega/v1/commerce-settings', { settings: { inventoryUpdateTrigger: 'ON_ORDER_PAID' } });
    expect(entry).toMatchObject({ action: 'commerce_settings.updated', object_type: 'commerce_settings', before: { inventoryUpdateTrigger: 'ON_ORDER_PLACED' }, after: { inventoryUpdateTrigger: 'ON_ORDER_PAID' } });
  });

  it('webhooks: create, update, pause, resume, replay and delete, never the secret', async () => {
    const created = await auditedCall(s, 'apiKey', 'POST', '/bodega/v1/webhooks', { subscription: { url: 'https://siem.example/hook', eventTypes: ['order.created'] } });
    const id = (created.res.json() as { subscription: { id: string } }).subscription.id;
    expect(created.entry).toMatchObject({ action: 'webhook.created', object_id: id, after: { url: 'https://siem.example/hook', eventTypes: ['order.created'], format: 'STANDARD', status: 'ACTIVE' } });
    expect(JSON.stringify(created.entry)).not.toContain('whsec_');
    const updated = await auditedCall(s, 'owner', 'PATCH', `/bodega/v1/webhooks/${id}`, { subscription: { eventTypes: ['order.created', 'order.paid'] } });
    expect(updated.entry).toMatchObject({ action: 'webhook.updated', before: { eventTypes: ['order.created'] }, after: { eventTypes: ['order.created', 'order.paid'] } });
    expect((await auditedCall(s, 'owner', 'POST', `/bodega/v1/webhooks/${id}/pause`)).entry).toMatchObject({ action: 'webhook.paused', before: { status: 'ACTIVE' }, after: { status: 'PAUSED' } });
    expect((await auditedCall(s, 'owner', 'POST', `/bodega/v1/webhooks/${id}/resume`)).entry).toMatchObject({ action: 'webhook.resumed', after: { status: 'ACTIVE' } });
    const ping = await t.app.inject({ method: 'POST', url: `/bodega/v1/webhooks/${id}/test`, headers: s.headers.owner });
    const deliveryId = (ping.json() as { deliveryId: string }).deliveryId;
    const replayed = await auditedCall(s, 'owner', 'POST', `/bodega/v1/webhooks/${id}/deliveries/${deliveryId}/replay`);
    expect(replayed.entry).toMatchObject({ action: 'webhook.replayed', object_id: id, after: { replayOf: deliveryId, eventType: 'webhook.ping' } });
    expect((await auditedCall(s, 'owner', 'DELETE', `/bodega/v1/webhooks/${id}`)).entry).toMatchObject({ action: 'webhook.deleted', before: { url: 'https://siem.example/hook' } });
  });

  it('members: role change, block and delete', async () => {
    const key = { authorization: s.site.apiKey, 'wix-site-id': s.site.siteId };
    const made = await t.app.inject({ method: 'POST', url: '/members/v1/members', headers: key, payload: { member: { loginEmail: `target.${Date.now()}@example.com` } } });
    const memberId = (made.json() as { member: { id: string } }).member.id;
    expect((await auditedCall(s, 'owner', 'POST', `/members/v1/members/${memberId}/role`, { role: 'CONTRIBUTOR' })).entry)
      .toMatchObject({ action: 'member.role_changed', object_type: 'member', object_id: memberId, before: { role: 'MEMBER' }, after: { role: 'CONTRIBUTOR' } });
    expect((await auditedCall(s, 'apiKey', 'POST', `/members/v1/members/${memberId}/block`, {})).entry)
      .toMatchObject({ action: 'member.blocked', before: { status: 'APPROVED' }, after: { status: 'BLOCKED' } });
    expect((await auditedCall(s, 'owner', 'DELETE', `/members/v1/members/${memberId}`)).entry)
      .toMatchObject({ action: 'member.deleted', object_id: memberId, before: { role: 'CONTRIBUTOR' } });
  });

  it('orders: mark paid, refund and cancel, with the money before and after', async () => {
    const lamp = await createProduct(t.app, s.site, { name: 'Lamp', priceData: { price: 40 } });
    const { orderId } = await placeOrder(t.app, s.site, await t.visitorToken(s.site), [catalogLine(lamp.id, 1)]);
    const paid = await auditedCall(s, 'apiKey', 'POST', `/ecom/v1/payments-collector/orders/${orderId}/mark-as-paid`, {});
    expect(paid.entry).toMatchObject({ action: 'order.marked_paid', object_type: 'order', object_id: orderId, before: { paymentStatus: 'NOT_PAID', paid: '0.00' }, after: { paymentStatus: 'PAID', paid: '40.00' } });
    const payments = (await t.app.inject({ method: 'GET', url: `/bodega/v1/orders/${orderId}/payments`, headers: s.headers.owner })).json() as { payments: { id: string }[] };
    const refunded = await auditedCall(s, 'owner', 'POST', `/ecom/v1/payments-collector/orders/${orderId}/trigger-refund`, { payments: [{ paymentId: payments.payments[0].id, amount: { amount: '15.00' } }] });
    expect(refunded.entry).toMatchObject({ action: 'order.refunded', before: { refunded: '0.00' }, after: { refunded: '15.00', paymentStatus: 'PARTIALLY_REFUNDED', amount: '15.00' } });
    const canceled = await auditedCall(s, 'owner', 'POST', `/ecom/v1/orders/${orderId}/cancel`, {});
    expect(canceled.entry).toMatchObject({ action: 'order.canceled', before: { status: 'APPROVED' }, after: { status: 'CANCELED', restockAllItems: false } });
  });

  it('data collection permissions (and no entry for an edit that leaves them)', async () => {
    const headers = s.headers.apiKey;
    expect((await t.app.inject({ method: 'POST', url: '/wix-data/v2/collections', headers, payload: { collection: { id: 'Notes', fields: [] } } })).statusCode).toBe(200);
    const before = await entries(s.site.siteId);
    const { entry } = await auditedCall(s, 'apiKey', 'PUT', '/wix-data/v2/collections', {
      collection: { id: 'Notes', fields: [], permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } },
    });
    expect(entry).toMatchObject({ action: 'data_collection.permissions_updated', object_type: 'data_collection', object_id: 'Notes', before: { read: 'SITE_MEMBER_AUTHOR' }, after: { read: 'ANYONE' } });
    const same = await t.app.inject({ method: 'PUT', url: '/wix-data/v2/collections', headers, payload: { collection: { id: 'Notes', fields: [{ key: 'title', type: 'TEXT' }], permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } } } });
    expect(same.statusCode, same.body).toBe(200);
    expect((await entries(s.site.siteId)).length).toBe(before.length + 1);
  });

  it('every export, as it starts streaming', async () => {
    expect((await auditedCall(s, 'owner', 'GET', '/bodega/v1/exports/products.csv')).entry).toMatchObject({ action: 'export.products', object_type: 'export', object_id: 'products.csv' });
    expect((await auditedCall(s, 'owner', 'GET', '/bodega/v1/exports/orders.csv?paymentStatus=PAID&from=2026-01-01')).entry)
      .toMatchObject({ action: 'export.orders', after: { paymentStatus: 'PAID', from: '2026-01-01T00:00:00.000Z' } });
    expect((await auditedCall(s, 'apiKey', 'GET', '/bodega/v1/exports/members.csv')).entry).toMatchObject({ action: 'export.members', object_id: 'members.csv' });
    expect((await auditedCall(s, 'owner', 'GET', '/bodega/v1/audit-log.csv?action=order.refunded')).entry).toMatchObject({ action: 'export.audit_log', after: { action: 'order.refunded' } });
  });
});

describe('a change that rolls back leaves no entry', () => {
  it('a refund over what is refundable fails inside its transaction and is not on record', async () => {
    const s = await backOfficeSite(t);
    const lamp = await createProduct(t.app, s.site, { name: 'Lamp', priceData: { price: 40 } });
    const { orderId } = await placeOrder(t.app, s.site, await t.visitorToken(s.site), [catalogLine(lamp.id, 1)]);
    await t.app.inject({ method: 'POST', url: `/ecom/v1/payments-collector/orders/${orderId}/mark-as-paid`, headers: s.headers.apiKey, payload: {} });
    const payments = (await t.app.inject({ method: 'GET', url: `/bodega/v1/orders/${orderId}/payments`, headers: s.headers.owner })).json() as { payments: { id: string }[] };
    const before = await entries(s.site.siteId);
    const tooMuch = await t.app.inject({
      method: 'POST', url: `/ecom/v1/payments-collector/orders/${orderId}/trigger-refund`, headers: s.headers.owner,
      payload: { payments: [{ paymentId: payments.payments[0].id, amount: { amount: '40.01' } }] },
    });
    expect(tooMuch.statusCode, tooMuch.body).toBe(400);
    expect(await entries(s.site.siteId)).toEqual(before);
  });

  it('an entry written before a failure in the same transaction is rolled back with it', async () => {
    const s = await backOfficeSite(t);
    const ctx: RequestContext = { ...t.app.services.sites.contextFor(s.site.siteId), caller: { kind: 'APP', siteId: s.site.siteId, subjectId: 'key-1' }, requestId: 'r-1' };
    const before = await entries(s.site.siteId);
    await expect(withTransaction(ctx, async (tx) => {
      await recordAudit(tx, { action: 'api_key.created', objectType: 'api_key', objectId: 'k' });
      throw new Error('forced failure after the entry');
    })).rejects.toThrow('forced failure');
    expect(await entries(s.site.siteId)).toEqual(before);
  });

  it('a refused role change (the last owner) leaves no entry', async () => {
    const s = await backOfficeSite(t);
    const before = await entries(s.site.siteId);
    const res = await t.app.inject({ method: 'POST', url: `/members/v1/members/${s.ownerId}/role`, headers: s.headers.owner, payload: { role: 'MEMBER' } });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(await entries(s.site.siteId)).toEqual(before);
  });
});

describe('bulk staff actions', () => {
  it('blocking and deleting by filter leave one entry per member changed', async () => {
    const s = await backOfficeSite(t);
    const key = { authorization: s.site.apiKey, 'wix-site-id': s.site.siteId };
    const tag = `bulk${Date.now()}`;
    const ids: string[] = [];
    for (const n of [1, 2]) {
      const made = await t.app.inject({ method: 'POST', url: '/members/v1/members', headers: key, payload: { member: { loginEmail: `${tag}.${n}@example.com` } } });
      ids.push((made.json() as { member: { id: string } }).member.id);
    }
    const filter = { loginEmail: { $startsWith: tag } };
    const before = await entries(s.site.siteId);
    const blocked = await t.app.inject({ method: 'POST', url: '/members/v1/members/bulk/block-by-filter', headers: key, payload: { filter } });
    expect(blocked.statusCode, blocked.body).toBe(200);
    const deleted = await t.app.inject({ method: 'POST', url: '/members/v1/members/bulk/delete-by-filter', headers: key, payload: { filter } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const added = (await entries(s.site.siteId)).filter((e) => !before.some((b) => b.entry_id === e.entry_id));
    expect(added.map((e) => [e.action, e.object_id]).sort()).toEqual([...ids.map((id) => ['member.blocked', id]), ...ids.map((id) => ['member.deleted', id])].sort());
  });
});

describe('the OpenAPI document', () => {
  it('describes the audit log calls', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/bodega/v1/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/bodega/v1/audit-log', '/bodega/v1/audit-log.csv', '/bodega/v1/audit-log/settings']));
  });
});
