/**
 * A bulk insert writes its items and their created events in one statement (store.ts
 * insertNewItemsWithEvents). The events must be the ones recordEvents wrote before: one per item,
 * in item order, with itemPayload's payload, and every one of them delivered to a subscriber.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { Receiver } from '../../test/webhooks.js';
import { DEFAULT_WEBHOOK_OPTIONS, WebhookWorker } from '../webhooks/worker.js';
import { itemPayload } from './items.js';
import type { JsonObject } from './wire-values.js';

process.env.WEBHOOKS_ALLOW_PRIVATE = 'true';

let t: TestApp;
let site: TestSite;
let receiver: Receiver;
const headers = () => ({ authorization: site.apiKey, 'wix-site-id': site.siteId });

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  receiver = new Receiver(() => new Date());
  await receiver.start();
});

afterAll(async () => {
  await receiver.close();
  await t.close();
});

async function post(url: string, payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url, headers: headers(), payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, unknown>;
}

describe('bulk insert events', () => {
  it('records one created event per item, as recordEvents would, and every one is delivered', async () => {
    await post('/wix-data/v2/collections', { collection: { id: 'Events', fields: [] } });
    await post('/bodega/v1/webhooks', { subscription: { url: receiver.url, eventTypes: ['data_item.created'], format: 'STANDARD' } });
    const items = Array.from({ length: 120 }, (_, i) => ({ data: { _id: `e${String(i).padStart(3, '0')}`, n: i, when: { $date: '2024-05-01T12:00:00Z' }, tags: ['a', i] } }));
    const result = await post('/wix-data/v2/bulk/items/insert', { dataCollectionId: 'Events', dataItems: items, returnEntity: true });
    expect(result.bulkActionMetadata).toEqual({ totalSuccesses: 120, totalFailures: 0, undetailedFailures: 0 });
    const stored = new Map((result.results as { dataItem: { id: string; data: JsonObject } }[]).map((r) => [r.dataItem.id, r.dataItem.data]));

    const events = await t.db.query<{ event_id: string; type: string; entity_type: string; entity_id: string; payload: JsonObject }>(
      `SELECT event_id, type, entity_type, entity_id, payload FROM outbox_events WHERE site_id = $1 AND entity_id LIKE 'Events/%' ORDER BY seq`,
      [site.siteId],
    );
    expect(events.map((e) => e.entity_id)).toEqual(items.map((item) => `Events/${item.data._id}`));
    for (const event of events) {
      expect(event.type).toBe('data_item.created');
      expect(event.entity_type).toBe('wix.data.v2.data_item');
      expect(event.event_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const id = event.entity_id.slice('Events/'.length);
      expect(event.payload).toEqual(itemPayload('Events', stored.get(id) ?? {}));
    }
    expect(new Set(events.map((e) => e.event_id)).size).toBe(120);

    const worker = new WebhookWorker(
      { db: t.db, now: () => new Date(), publicUrl: 'http://localhost:3000', mail: t.app.services.mail, keys: t.app.services.webhooks.keys },
      { ...DEFAULT_WEBHOOK_OPTIONS, allowPrivate: true, random: () => 0.5, sites: [site.siteId] },
    );
    await worker.runUntilIdle();
    const bodies = receiver.received.map((r) => r.body);
    expect(bodies).toHaveLength(120);
    for (const event of events) expect(bodies.filter((body) => body.includes(event.event_id) && body.includes(`"${event.entity_id}"`))).toHaveLength(1);
  });

  it('a bulk insert that meets a stored id still records the events of exactly the items written', async () => {
    await post('/wix-data/v2/collections', { collection: { id: 'Clash', fields: [] } });
    await post('/wix-data/v2/items', { dataCollectionId: 'Clash', dataItem: { data: { _id: 'taken' } } });
    const result = await post('/wix-data/v2/bulk/items/insert', { dataCollectionId: 'Clash', dataItems: [{ data: { _id: 'x1' } }, { data: { _id: 'taken' } }, { data: { _id: 'x2' } }] });
    expect(result.bulkActionMetadata).toEqual({ totalSuccesses: 2, totalFailures: 1, undetailedFailures: 0 });
    const events = await t.db.query<{ entity_id: string }>(
      `SELECT entity_id FROM outbox_events WHERE site_id = $1 AND entity_id LIKE 'Clash/%' ORDER BY seq`, [site.siteId]);
    expect(events.map((e) => e.entity_id)).toEqual(['Clash/taken', 'Clash/x1', 'Clash/x2']);
  });
});
