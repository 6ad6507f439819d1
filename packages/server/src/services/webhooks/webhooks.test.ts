import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, AppStrategy, createClient } from '@wix/sdk';
import { orders } from '@wix/ecom';
import { testApp, testDb, type TestApp, type TestSite } from '../../test/harness.js';
import { buildApp } from '../../app.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { apiKey, catalogLine, createProduct, placeOrder } from '../../test/commerce.js';
import { Receiver } from '../../test/webhooks.js';
import { countStatements } from '../../test/statements.js';
import { recordEvent } from '../../platform/events.js';
import { poolContext, withTransaction } from '../../platform/context.js';
import { isCitus } from '../../platform/citus.js';
import { DEFAULT_WEBHOOK_OPTIONS, WebhookWorker, type WebhookOptions } from './worker.js';
import { isPrivateAddress, post, urlProblem } from './send.js';

// Receivers in these tests listen on 127.0.0.1.
process.env.WEBHOOKS_ALLOW_PRIVATE = 'true';

let clock = new Date();
const now = () => clock;
let t: TestApp;
let wixFetch: ReturnType<typeof redirectWixFetch>;
const receivers: Receiver[] = [];

beforeAll(async () => {
  t = await testApp({ now });
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  for (const r of receivers) await r.close();
  await t.close();
});

function advance(ms: number): void {
  clock = new Date(clock.getTime() + ms);
}

/** A worker like the server's, limited to these sites, with fixed jitter. */
function worker(sites: readonly string[], options: Partial<WebhookOptions> = {}, app = t.app, db = t.db): WebhookWorker {
  return new WebhookWorker(
    { db, now, publicUrl: 'http://localhost:3000', mail: app.services.mail, keys: app.services.webhooks.keys },
    { ...DEFAULT_WEBHOOK_OPTIONS, allowPrivate: true, random: () => 0.5, ...options, sites },
  );
}

async function receiver(): Promise<Receiver> {
  const r = new Receiver(now);
  await r.start();
  receivers.push(r);
  return r;
}

async function subscribe(s: TestSite, url: string, eventTypes: string[], format: 'WIX' | 'STANDARD' = 'STANDARD'): Promise<{ id: string; secret: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/bodega/v1/webhooks', headers: apiKey(s), payload: { subscription: { url, eventTypes, format } } });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { subscription: { id: string }; secret: string };
  return { id: body.subscription.id, secret: body.secret };
}

async function deliveries(s: TestSite, subscriptionId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/webhooks/${subscriptionId}/deliveries`, headers: apiKey(s) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { deliveries: { id: string; status: string; attempts: number; nextAttemptDate?: string; lastError?: string; eventType: string; attemptLog: { statusCode?: number; error?: string }[] }[] }).deliveries;
}

/** A cart change recorded straight in the outbox (commit order is the only thing under test). */
async function touch(s: TestSite, entityId: string, n: number, rollback = false): Promise<void> {
  await withTransaction(poolContext(t.db), async (tx) => {
    await recordEvent(tx, { siteId: s.siteId, type: 'cart.updated', entityType: 'cart', entityId, payload: { n } });
    if (rollback) throw new Error('rolled back');
  }).catch((error: unknown) => {
    if (!rollback) throw error;
  });
}

describe('Wix format and Standard Webhooks', () => {
  it('an order placed reaches an unmodified official-SDK handler and a Standard Webhooks receiver', async () => {
    const s = await t.createSite({ name: 'Tea house' });
    const product = await createProduct(t.app, s, { name: 'Teapot', priceData: { price: 45 } });
    const wixReceiver = await receiver();
    const standardReceiver = await receiver();

    const keyRes = await t.app.inject({ method: 'GET', url: '/bodega/v1/webhooks/public-key', headers: apiKey(s) });
    expect(keyRes.statusCode).toBe(200);
    const publicKey = (keyRes.json() as { publicKey: string }).publicKey;
    expect(publicKey).toContain('BEGIN PUBLIC KEY');

    const app = createClient({ auth: AppStrategy({ appId: 'my-app', publicKey }), modules: { orders } });
    const handled: { entity: unknown; metadata: { entityId?: string; instanceId?: string | null; eventType?: string } }[] = [];
    app.orders.onOrderCreated((event) => {
      handled.push(event);
    });
    wixReceiver.answer = async (_n, body) => {
      await app.webhooks.process(body);
      return 200;
    };
    await subscribe(s, wixReceiver.url, ['wix.ecom.v1.order_created'], 'WIX');
    const standard = await subscribe(s, standardReceiver.url, ['order.created']);
    expect(standard.secret).toMatch(/^whsec_/);

    const { orderId } = await placeOrder(t.app, s, await t.visitorToken(s), [catalogLine(product.id, 2)], { email: 'ann@example.com' });
    await worker([s.siteId]).runUntilIdle();

    expect(wixReceiver.received).toHaveLength(1);
    expect(handled).toHaveLength(1);
    const merchant = createClient({ modules: { orders }, auth: ApiKeyStrategy({ apiKey: s.apiKey, siteId: s.siteId }) });
    const read = await merchant.orders.getOrder(orderId);
    expect(handled[0].entity).toEqual(read);
    expect(handled[0].metadata.entityId).toBe(orderId);
    expect(handled[0].metadata.instanceId).toBe(s.siteId);

    expect(standardReceiver.received).toHaveLength(1);
    const got = standardReceiver.received[0];
    const id = String(got.headers['webhook-id']);
    const timestamp = String(got.headers['webhook-timestamp']);
    const key = Buffer.from(standard.secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${got.body}`).digest('base64');
    expect(String(got.headers['webhook-signature']).split(' ')).toContain(`v1,${expected}`);
    expect(Number(timestamp)).toBe(Math.floor(clock.getTime() / 1000));
    const body = JSON.parse(got.body) as { type: string; data: { entityId: string; entity: { id: string; number: string; lineItems: unknown[] } } };
    expect(body.type).toBe('order.created');
    expect(body.data.entityId).toBe(orderId);
    const rest = (await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: apiKey(s) })).json() as { order: unknown };
    expect(body.data.entity).toEqual(rest.order);
  });

  it('a JWT signed with another key is refused by the SDK', async () => {
    const s = await t.createSite();
    const other = await t.createSite();
    const r = await receiver();
    const otherKey = ((await t.app.inject({ method: 'GET', url: '/bodega/v1/webhooks/public-key', headers: apiKey(other) })).json() as { publicKey: string }).publicKey;
    const app = createClient({ auth: AppStrategy({ appId: 'my-app', publicKey: otherKey }), modules: { orders } });
    app.orders.onOrderCreated(() => undefined);
    const outcomes: string[] = [];
    r.answer = async (_n, body) => {
      try {
        await app.webhooks.process(body);
        outcomes.push('accepted');
      } catch {
        outcomes.push('refused');
      }
      return 200;
    };
    await subscribe(s, r.url, ['order.created'], 'WIX');
    await placeOrder(t.app, s, await t.visitorToken(s), [catalogLine((await createProduct(t.app, s, { name: 'Cup', priceData: { price: 5 } })).id)]);
    await worker([s.siteId]).runUntilIdle();
    expect(outcomes).toEqual(['refused']);
  });
});

describe('retries, stops and pauses', () => {
  it('a receiver that fails twice then succeeds gets the event three times, with growing gaps', async () => {
    const s = await t.createSite();
    const r = await receiver();
    r.answer = (n) => (n < 2 ? 503 : 200);
    const sub = await subscribe(s, r.url, ['cart.updated']);
    await touch(s, 'cart-1', 1);
    const w = worker([s.siteId]);

    await w.runUntilIdle();
    expect(r.received).toHaveLength(1);
    for (let attempt = 2; attempt <= 3; attempt++) {
      const [pending] = await deliveries(s, sub.id);
      expect(pending.status).toBe('PENDING');
      const due = new Date(String(pending.nextAttemptDate));
      clock = new Date(due.getTime() - 1);
      await w.runUntilIdle();
      expect(r.received).toHaveLength(attempt - 1);
      clock = due;
      await w.runUntilIdle();
      expect(r.received).toHaveLength(attempt);
    }
    const [done] = await deliveries(s, sub.id);
    expect(done.status).toBe('DELIVERED');
    expect(done.attemptLog.map((a) => a.statusCode)).toEqual([503, 503, 200]);
    const gaps = [r.received[1].at.getTime() - r.received[0].at.getTime(), r.received[2].at.getTime() - r.received[1].at.getTime()];
    expect(gaps[0]).toBeGreaterThan(0);
    expect(gaps[1]).toBeGreaterThan(gaps[0]);
    expect(new Set(r.received.map((x) => x.headers['webhook-id'])).size).toBe(1);
  });

  it('a 4xx other than 408/429 stops at once; a 429 retries', async () => {
    const s = await t.createSite();
    const r = await receiver();
    r.answer = (_n, body) => ((JSON.parse(body) as { data: { entityId: string } }).data.entityId === 'gone' ? 410 : 429);
    const sub = await subscribe(s, r.url, ['*']);
    await touch(s, 'gone', 1);
    await touch(s, 'busy', 1);
    const w = worker([s.siteId]);
    await w.runUntilIdle();
    advance(48 * 60 * 60_000 - 60_000);
    await w.runUntilIdle();
    const log = await deliveries(s, sub.id);
    const gone = log.find((d) => d.attemptLog[0]?.statusCode === 410);
    const busy = log.find((d) => d.attemptLog[0]?.statusCode === 429);
    expect(gone?.status).toBe('FAILED');
    expect(gone?.attempts).toBe(1);
    expect(busy?.attempts).toBeGreaterThan(1);
    expect(r.received.filter((x) => x.body.includes('"gone"'))).toHaveLength(1);
  });

  it('a subscription that keeps failing is paused with its reason; resume delivers what piled up', async () => {
    const s = await t.createSite();
    const dead = await receiver();
    const url = dead.url;
    await dead.close();
    receivers.splice(receivers.indexOf(dead), 1);
    const sub = await subscribe(s, url, ['cart.updated']);
    const w = worker([s.siteId], { pauseAfterFailures: 3 });
    await touch(s, 'cart-p', 1);
    for (let i = 0; i < 5; i++) {
      await w.runUntilIdle();
      advance(2 * 60 * 60_000);
    }
    const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/webhooks/${sub.id}`, headers: apiKey(s) });
    const paused = (res.json() as { subscription: { status: string; pausedReason?: string } }).subscription;
    expect(paused.status).toBe('PAUSED');
    expect(paused.pausedReason).toMatch(/3 delivery attempts in a row failed \(last: .*ECONNREFUSED/);
    const [log] = await deliveries(s, sub.id);
    expect(log.attempts).toBe(3);
    expect(log.attemptLog.every((a) => a.error?.includes('ECONNREFUSED'))).toBe(true);

    const alive = await receiver();
    const moved = await t.app.inject({ method: 'PATCH', url: `/bodega/v1/webhooks/${sub.id}`, headers: apiKey(s), payload: { subscription: { url: alive.url } } });
    expect(moved.statusCode).toBe(200);
    await w.runUntilIdle();
    expect(alive.received).toHaveLength(0);
    const resumed = await t.app.inject({ method: 'POST', url: `/bodega/v1/webhooks/${sub.id}/resume`, headers: apiKey(s) });
    expect((resumed.json() as { subscription: { status: string } }).subscription.status).toBe('ACTIVE');
    await w.runUntilIdle();
    expect(alive.received).toHaveLength(1);
  });
});

describe('several servers, crashes and rollbacks', () => {
  it('two server processes on one database deliver each event once, in commit order per entity', async () => {
    const s = await t.createSite();
    // On PostgreSQL the second server has its own connection pool, as a second process would.
    const secondDb = process.env.DATABASE_URL ? await testDb() : t.db;
    const second = await testApp({ now, db: secondDb });
    try {
      const r = await receiver();
      await subscribe(s, r.url, ['cart.updated']);
      for (let n = 0; n < 10; n++) for (const cart of ['a', 'b', 'c']) await touch(s, cart, n);
      const one = worker([s.siteId], { maxInFlight: 4 });
      const two = worker([s.siteId], { maxInFlight: 4 }, second.app, secondDb);
      await Promise.all([one.runUntilIdle(), two.runUntilIdle(), one.runUntilIdle(), two.runUntilIdle()]);
      await one.runUntilIdle();
      const events = r.received.map((x) => JSON.parse(x.body) as { data: { eventId: string; entityId: string; entity: { n: number } } });
      expect(events).toHaveLength(30);
      expect(new Set(events.map((e) => e.data.eventId)).size).toBe(30);
      for (const cart of ['a', 'b', 'c']) {
        expect(events.filter((e) => e.data.entityId === cart).map((e) => e.data.entity.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      }
    } finally {
      await second.close();
      if (secondDb !== t.db) await secondDb.close();
    }
  });

  it('both claim shapes deliver every site\'s events once and in order: one statement a batch across sites, one per site as on Citus', async () => {
    const sites = [await t.createSite(), await t.createSite(), await t.createSite()];
    const r = await receiver();
    for (const s of sites) await subscribe(s, r.url, ['cart.updated']);
    // On Citus both runs claim site by site (the plain shape's lock across shards is refused there).
    const citus = await isCitus(poolContext(t.db));
    for (const perSiteClaims of [false, true]) {
      r.received.length = 0;
      for (let n = 0; n < 4; n++) for (const s of sites) await touch(s, `cart-${String(perSiteClaims)}`, n);
      const db = process.env.DATABASE_URL ? await testDb() : t.db;
      // Counted on a handle of its own, so requests of other tests are not in the count.
      const statements = db === t.db ? undefined : countStatements(db);
      try {
        const w = worker(sites.map((s) => s.siteId), { maxInFlight: 32, perSiteClaims }, t.app, db);
        await w.fanOut();
        statements?.reset();
        // Each site's first event (the others wait for it: one at a time per entity).
        const claimed = await w.claim(32);
        expect(claimed).toHaveLength(3);
        // One claim statement across the three sites; per site: a look for sites with work, then one each.
        if (statements) expect(statements.count()).toBe(perSiteClaims || citus ? 4 : 1);
        for (const row of claimed) await w.deliver(row);
        await w.runUntilIdle();
      } finally {
        if (db !== t.db) await db.close();
      }
      const events = r.received.map((x) => JSON.parse(x.body) as { data: { eventId: string; siteId: string; entity: { n: number } } });
      expect(new Set(events.map((e) => e.data.eventId)).size).toBe(12);
      for (const s of sites) expect(events.filter((e) => e.data.siteId === s.siteId).map((e) => e.data.entity.n)).toEqual([0, 1, 2, 3]);
    }
  });

  it('a delivery given up hands its entity\'s turn to the next; a replay into an entity with pending deliveries waits its turn', async () => {
    const s = await t.createSite();
    const r = await receiver();
    const nOf = (body: string) => (JSON.parse(body) as { data: { entity: { n: number } } }).data.entity.n;
    r.answer = (_i, body) => (nOf(body) === 0 ? 410 : nOf(body) === 3 ? 503 : 200);
    const sub = await subscribe(s, r.url, ['cart.updated']);
    for (let n = 0; n < 3; n++) await touch(s, 'chain', n);
    const w = worker([s.siteId]);
    await w.runUntilIdle();
    expect(r.received.map((x) => nOf(x.body))).toEqual([0, 1, 2]);
    // 3 fails and waits for its retry; 4 waits behind it, and so does a replay of 1.
    await touch(s, 'chain', 3);
    await touch(s, 'chain', 4);
    await w.runUntilIdle();
    // The log lists the newest first (one clock time: by event order): the delivered ones are 2, then 1.
    const [, ofOne] = (await deliveries(s, sub.id)).filter((d) => d.status === 'DELIVERED');
    const replay = await t.app.inject({ method: 'POST', url: `/bodega/v1/webhooks/${sub.id}/deliveries/${ofOne.id}/replay`, headers: apiKey(s) });
    expect(replay.statusCode, replay.body).toBe(200);
    await w.runUntilIdle();
    expect(r.received.map((x) => nOf(x.body))).toEqual([0, 1, 2, 3]);
    r.answer = () => 200;
    advance(60_000);
    await w.runUntilIdle();
    const sent = r.received.map((x) => nOf(x.body));
    expect(sent.slice(0, 5)).toEqual([0, 1, 2, 3, 3]);
    // The replay takes a new place in the order (on Citus the coordinator's sequence numbers and the
    // workers' are in ranges of their own, so whether it goes before or after 4 is not fixed there).
    expect(sent.slice(5).sort()).toEqual([1, 4]);
    expect((await deliveries(s, sub.id)).filter((d) => d.status === 'FAILED')).toHaveLength(1);
  });

  it('events committed while two workers deliver: each once and in order per entity; an entity with pending deliveries always has one that may go', async () => {
    const s = await t.createSite();
    const r = await receiver();
    await subscribe(s, r.url, ['cart.updated']);
    const otherDb = process.env.DATABASE_URL ? await testDb() : t.db;
    const [one, two] = [worker([s.siteId], { maxInFlight: 4 }), worker([s.siteId], { maxInFlight: 4 }, t.app, otherDb)];
    const entities = ['p', 'q', 'r', 's'];
    try {
      let committing = true;
      const commits = (async () => {
        for (let n = 0; n < 15; n++) for (const e of entities) await touch(s, e, n);
        committing = false;
      })();
      const drain = async (w: WebhookWorker) => {
        while (committing) await w.runUntilIdle();
      };
      await Promise.all([commits, drain(one), drain(two)]);
      await one.fanOut(1000);
      // Every entity with pending deliveries has exactly one head (claims.ts), never none or two.
      const heads = await t.db.query<{ entity_id: string; heads: number }>(
        `SELECT entity_id, count(*) FILTER (WHERE head)::int AS heads FROM webhook_deliveries
         WHERE site_id = $1 AND status IN ('PENDING', 'SENDING') GROUP BY entity_id`, [s.siteId]);
      for (const row of heads) expect(row, row.entity_id).toMatchObject({ heads: 1 });
      await one.runUntilIdle();
    } finally {
      if (otherDb !== t.db) await otherDb.close();
    }
    const events = r.received.map((x) => JSON.parse(x.body) as { data: { eventId: string; entityId: string; entity: { n: number } } });
    expect(events).toHaveLength(60);
    expect(new Set(events.map((e) => e.data.eventId)).size).toBe(60);
    for (const e of entities) expect(events.filter((x) => x.data.entityId === e).map((x) => x.data.entity.n)).toEqual(Array.from({ length: 15 }, (_, n) => n));
  });

  it('a server started with delivery on sends events by itself, off the request path', async () => {
    const s = await t.createSite();
    const r = await receiver();
    await subscribe(s, r.url, ['cart.updated']);
    const running = await buildApp({
      db: t.db,
      config: { publicUrl: 'http://localhost:3000', logLevel: 'silent', webDir: undefined, smtpUrl: undefined },
      webhooks: { deliver: true, options: { sites: [s.siteId], pollMs: 20 } },
    });
    await running.ready();
    try {
      await touch(s, 'cart-bg', 1);
      const deadline = Date.now() + 10_000;
      while (r.received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(r.received).toHaveLength(1);
    } finally {
      await running.close();
    }
  });

  it('a crash between claim and delivery leads to a retry after the lease, not a loss', async () => {
    const s = await t.createSite();
    const r = await receiver();
    const sub = await subscribe(s, r.url, ['cart.updated']);
    await touch(s, 'cart-crash', 1);
    const crashed = worker([s.siteId]);
    await crashed.fanOut();
    expect(await crashed.claim(10)).toHaveLength(1);
    // The claiming server is gone: nothing records the attempt.
    const survivor = worker([s.siteId]);
    await survivor.runUntilIdle();
    expect(r.received).toHaveLength(0);
    advance(DEFAULT_WEBHOOK_OPTIONS.timeoutMs + 30_000);
    await survivor.runUntilIdle();
    expect(r.received).toHaveLength(1);
    const [log] = await deliveries(s, sub.id);
    expect(log.status).toBe('DELIVERED');
    expect(log.attempts).toBe(2);
  });

  it('a subscription deleted while its delivery is in flight does not jam the worker', async () => {
    const s = await t.createSite();
    const r = await receiver();
    const sub = await subscribe(s, r.url, ['cart.updated']);
    await touch(s, 'cart-del', 1);
    const w = worker([s.siteId]);
    await w.fanOut();
    const [claimed] = await w.claim(1);
    await w.deliver(claimed);
    expect((await t.app.inject({ method: 'DELETE', url: `/bodega/v1/webhooks/${sub.id}`, headers: apiKey(s) })).statusCode).toBe(200);
    await w.flush();
    const next = await subscribe(s, r.url, ['cart.updated']);
    await touch(s, 'cart-del', 2);
    await w.runUntilIdle();
    expect(r.received).toHaveLength(2);
    expect((await deliveries(s, next.id)).map((d) => d.status)).toEqual(['DELIVERED']);
  });

  it('a rolled-back change sends nothing', async () => {
    const s = await t.createSite();
    const r = await receiver();
    await subscribe(s, r.url, ['*']);
    await touch(s, 'cart-rb', 1, true);
    await worker([s.siteId]).runUntilIdle();
    expect(r.received).toHaveLength(0);
    await touch(s, 'cart-ok', 1);
    await worker([s.siteId]).runUntilIdle();
    expect(r.received.map((x) => (JSON.parse(x.body) as { data: { entityId: string } }).data.entityId)).toEqual(['cart-ok']);
  });

  it('prunes fanned-out events and finished deliveries after the retention', async () => {
    const s = await t.createSite();
    const r = await receiver();
    const sub = await subscribe(s, r.url, ['cart.updated']);
    await touch(s, 'cart-old', 1);
    const w = worker([s.siteId], { retentionDays: 7 });
    await w.runUntilIdle();
    expect(await deliveries(s, sub.id)).toHaveLength(1);
    advance(8 * 24 * 60 * 60_000);
    const pruned = await w.prune();
    expect(pruned.deliveries).toBeGreaterThanOrEqual(1);
    expect(await deliveries(s, sub.id)).toHaveLength(0);
    const left = await t.db.query('SELECT 1 FROM outbox_events WHERE site_id = $1', [s.siteId]);
    expect(left).toHaveLength(0);
  });

  it('a chain left without a head (rows of a server older than migration 1161) is repaired by the housekeeping, then delivers in order', async () => {
    const s = await t.createSite();
    const r = await receiver();
    const nOf = (body: string) => (JSON.parse(body) as { data: { entity: { n: number } } }).data.entity.n;
    r.answer = () => 503;
    await subscribe(s, r.url, ['cart.updated']);
    for (let n = 0; n < 3; n++) await touch(s, 'headless', n);
    const w = worker([s.siteId]);
    await w.runUntilIdle();
    expect(r.received.map((x) => nOf(x.body))).toEqual([0]);
    // What an older server leaves behind: the chain's rows pending, none of them its head.
    await t.db.query('UPDATE webhook_deliveries SET head = false WHERE site_id = $1', [s.siteId]);
    r.answer = () => 200;
    advance(60_000);
    await w.runUntilIdle();
    expect(r.received).toHaveLength(1);
    expect((await w.prune()).repairedChains).toBe(1);
    await w.runUntilIdle();
    expect(r.received.map((x) => nOf(x.body))).toEqual([0, 0, 1, 2]);
    expect((await w.prune()).repairedChains).toBe(0);
  });
});

describe('the subscriptions API', () => {
  it('creates, lists, updates, pings, replays and deletes; the log shows every attempt', async () => {
    const s = await t.createSite();
    const r = await receiver();
    const sub = await subscribe(s, r.url, ['order.created']);
    const list = await t.app.inject({ method: 'GET', url: '/bodega/v1/webhooks', headers: apiKey(s) });
    expect((list.json() as { subscriptions: { id: string; format: string; status: string }[] }).subscriptions).toMatchObject([{ id: sub.id, format: 'STANDARD', status: 'ACTIVE' }]);
    const otherSite = await t.createSite();
    expect((await t.app.inject({ method: 'GET', url: `/bodega/v1/webhooks/${sub.id}`, headers: apiKey(otherSite) })).statusCode).toBe(404);

    const ping = await t.app.inject({ method: 'POST', url: `/bodega/v1/webhooks/${sub.id}/test`, headers: apiKey(s) });
    expect(ping.statusCode).toBe(200);
    const w = worker([s.siteId]);
    await w.runUntilIdle();
    expect(r.received).toHaveLength(1);
    expect((JSON.parse(r.received[0].body) as { type: string }).type).toBe('webhook.ping');

    const [first] = await deliveries(s, sub.id);
    const replay = await t.app.inject({ method: 'POST', url: `/bodega/v1/webhooks/${sub.id}/deliveries/${first.id}/replay`, headers: apiKey(s) });
    expect(replay.statusCode, replay.body).toBe(200);
    expect((replay.json() as { delivery: { replayOf: string; status: string } }).delivery).toMatchObject({ replayOf: first.id, status: 'PENDING' });
    await w.runUntilIdle();
    expect(r.received).toHaveLength(2);
    expect(r.received[1].body).toBe(r.received[0].body);
    expect(r.received[1].headers['webhook-id']).not.toBe(r.received[0].headers['webhook-id']);
    const one = await t.app.inject({ method: 'GET', url: `/bodega/v1/webhooks/${sub.id}/deliveries/${first.id}`, headers: apiKey(s) });
    expect((one.json() as { delivery: { attemptLog: { statusCode: number; durationMs: number; responseExcerpt: string }[] } }).delivery.attemptLog).toMatchObject([{ statusCode: 200, responseExcerpt: 'answer 200' }]);

    const paused = await t.app.inject({ method: 'POST', url: `/bodega/v1/webhooks/${sub.id}/pause`, headers: apiKey(s) });
    expect((paused.json() as { subscription: { status: string; pausedReason: string } }).subscription).toMatchObject({ status: 'PAUSED', pausedReason: expect.stringContaining('merchant') });
    const updated = await t.app.inject({ method: 'PATCH', url: `/bodega/v1/webhooks/${sub.id}`, headers: apiKey(s), payload: { subscription: { eventTypes: ['order.paid', 'order.created'], format: 'WIX' } } });
    expect((updated.json() as { subscription: { eventTypes: string[]; format: string } }).subscription).toMatchObject({ eventTypes: ['order.paid', 'order.created'], format: 'WIX' });
    expect((await t.app.inject({ method: 'DELETE', url: `/bodega/v1/webhooks/${sub.id}`, headers: apiKey(s) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/bodega/v1/webhooks/${sub.id}`, headers: apiKey(s) })).statusCode).toBe(404);
  });

  it('answers bad input with 4xx in the wire error shape', async () => {
    const s = await t.createSite();
    const visitor = await t.visitorToken(s);
    const cases = [
      { method: 'GET' as const, url: '/bodega/v1/webhooks', headers: {}, status: 401 },
      { method: 'GET' as const, url: '/bodega/v1/webhooks', headers: { authorization: visitor }, status: 403 },
      { method: 'POST' as const, url: '/bodega/v1/webhooks', headers: apiKey(s), payload: { subscription: { url: 'ftp://x', eventTypes: ['*'] } }, status: 400 },
      { method: 'POST' as const, url: '/bodega/v1/webhooks', headers: apiKey(s), payload: { subscription: { url: 'https://example.com/h', eventTypes: [] } }, status: 400 },
      { method: 'POST' as const, url: '/bodega/v1/webhooks', headers: apiKey(s), payload: { subscription: { url: 'https://example.com/h', eventTypes: ['a b'] } }, status: 400 },
      { method: 'POST' as const, url: '/bodega/v1/webhooks', headers: apiKey(s), payload: { subscription: { url: 'https://example.com/h', eventTypes: ['*'], format: 'XML' } }, status: 400 },
      { method: 'POST' as const, url: '/bodega/v1/webhooks/nope/test', headers: apiKey(s), status: 404 },
      { method: 'POST' as const, url: '/bodega/v1/webhooks/nope/deliveries/x/replay', headers: apiKey(s), status: 404 },
      { method: 'GET' as const, url: '/bodega/v1/webhooks/nope/deliveries?limit=0', headers: apiKey(s), status: 400 },
    ];
    for (const c of cases) {
      const res = await t.app.inject({ method: c.method, url: c.url, headers: c.headers, ...('payload' in c ? { payload: c.payload } : {}) });
      expect(res.statusCode, `${c.method} ${c.url} ${res.body}`).toBe(c.status);
      expect((res.json() as { message?: string }).message, res.body).toEqual(expect.any(String));
    }
  });
});

describe('the SSRF guard', () => {
  it('refuses loopback and private receivers unless allowed', async () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '::1', 'fd00::1', '::ffff:127.0.0.1', '0.0.0.0']) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700::1111']) expect(isPrivateAddress(ip), ip).toBe(false);
    expect(urlProblem('http://127.0.0.1:8080/h', false)).toMatch(/private/);
    expect(urlProblem('http://localhost/h', false)).toMatch(/private/);
    expect(urlProblem('http://[::1]/h', false)).toMatch(/private/);
    expect(urlProblem('http://127.0.0.1:8080/h', true)).toBeUndefined();
    expect(urlProblem('https://user:pw@example.com/h', true)).toMatch(/credentials/);
    const r = await receiver();
    const viaName = await post(r.url.replace('127.0.0.1', 'localhost'), {}, '{}', { timeoutMs: 2000, allowPrivate: false });
    expect(viaName.status).toBeNull();
    expect(viaName.error).toMatch(/refused/);
    expect(r.received).toHaveLength(0);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const r = await receiver();
    let release: () => void = () => undefined;
    r.answer = () => new Promise((resolve) => {
      release = () => resolve(200);
    });
    const result = await post(r.url, {}, '{}', { timeoutMs: 200, allowPrivate: true });
    release();
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/time-out/);
  });
});
