import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startBuiltServer, type Started } from './built-server.js';
import { createOwnDatabase, type OwnDatabase } from './own-database.js';
import { PM, STAND_IN_SECRET_KEY, STAND_IN_WEBHOOK_SECRET, startStripeStandIn, type StandIn } from '../packages/server/src/test/stripe-stand-in.js';

/**
 * kill -9 between Stripe's "yes" and our commit: the built server is killed while the stand-in of
 * the Stripe API holds its answer to the PaymentIntent it made; after a restart on the same
 * database, Stripe's webhook (and the shopper's retry) end in exactly one order and one charge.
 */
const databaseUrl = process.env.DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-pay-crash-'));
// The server makes the demo store (and prints its keys) on an empty database only: on PostgreSQL
// the test makes an empty database of its own on DATABASE_URL's server (on a Citus cluster, a
// distributed one), and drops it after.
const ownName = `bodega_pay_crash_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
let own: OwnDatabase | undefined;
const store: Record<string, string | undefined> = { DATA_DIR: dataDir, DATABASE_URL: undefined };

beforeAll(async () => {
  if (!databaseUrl) return;
  own = await createOwnDatabase(databaseUrl, ownName);
  Object.assign(store, { DATA_DIR: undefined, DATABASE_URL: own.url });
});

async function start(port: number, stripeUrl: string): Promise<Started> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...store, PORT: String(port), HOST: '127.0.0.1', WORKERS: '1', STRIPE_API_URL: stripeUrl, RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_TOKEN: '0' };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return startBuiltServer(env, port);
}

const running: Started[] = [];
let stand: StandIn | undefined;
afterAll(async () => {
  for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await Promise.all(running.map((s) => s.exited));
  await stand?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  await own?.drop();
});

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

// It reads the keys the server prints when it creates the demo store (on an empty database).
describe('kill -9 between the provider\'s success and our commit', () => {
  it('after the restart: exactly one order and one charge', async () => {
    stand = await startStripeStandIn();
    const stripeUrl = `http://${stand.api.host}:${stand.api.port}`;
    const port = await freePort();
    const first = await start(port, stripeUrl);
    running.push(first);
    const until = Date.now() + 30_000;
    while (!/apiKey:\s+\S+/.test(first.output()) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    const siteId = /siteId:\s+(\S+)/.exec(first.output())?.[1] as string;
    const clientId = /clientId:\s+(\S+)/.exec(first.output())?.[1] as string;
    const apiKey = /apiKey:\s+(\S+)/.exec(first.output())?.[1] as string;
    const key = { authorization: apiKey, 'wix-site-id': siteId, 'content-type': 'application/json' };
    const set = await fetch(`${first.base}/_api/bodega/v1/payment-settings`, { method: 'PATCH', headers: key, body: JSON.stringify({ settings: { provider: 'stripe', secretKey: STAND_IN_SECRET_KEY, webhookSecret: STAND_IN_WEBHOOK_SECRET } }) });
    expect(set.status).toBe(200);
    const products = await json(await fetch(`${first.base}/stores-reader/v1/products/query`, { method: 'POST', headers: key, body: JSON.stringify({ query: { paging: { limit: 100 } } }) }));
    expect(products, JSON.stringify(products).slice(0, 300)).toHaveProperty('products.0.id');
    // A demo product without options that is in stock (the order of an unsorted query is not fixed).
    const productId = (products.products as { id: string; name: string }[]).find((p) => p.name === 'Waxed Canvas Tote')?.id as string;
    const token = (await json(await fetch(`${first.base}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId, grantType: 'anonymous' }) }))).access_token as string;
    const shopper = { authorization: token, 'content-type': 'application/json' };
    const created = await json(await fetch(`${first.base}/ecom/v1/checkouts`, {
      method: 'POST', headers: shopper,
      body: JSON.stringify({ lineItems: [{ catalogReference: { appId: '215238eb-22a5-4c36-9e7b-e7c08025e04e', catalogItemId: productId }, quantity: 1 }], checkoutInfo: { buyerInfo: { email: 'crash@example.com' }, shippingInfo: { shippingDestination: { address: { country: 'US', subdivision: 'US-NY', city: 'New York', addressLine: '1 Main St', postalCode: '10001' } } } } }),
    }));
    expect(created, JSON.stringify(created).slice(0, 300)).toHaveProperty('checkout.id');
    const checkoutId = (created.checkout as { id: string }).id;

    // Stripe makes the charge; before its answer reaches us, the server is killed.
    stand.onCreate = () => {
      first.child.kill('SIGKILL');
    };
    const lost = await fetch(`${first.base}/ecom/v1/checkouts/${checkoutId}/create-order-and-charge`, { method: 'POST', headers: shopper, body: JSON.stringify({ paymentToken: PM.visa }) }).then(() => 'answered', () => 'no answer');
    stand.onCreate = undefined;
    expect(lost).toBe('no answer');
    await first.exited;
    const intents = [...stand.intents.values()].filter((i) => i.metadata.bodega_checkout === checkoutId);
    expect(intents.map((i) => i.status)).toEqual(['succeeded']);

    const second = await start(port, stripeUrl);
    running.push(second);
    const { payload, headers } = stand.signed('payment_intent.succeeded', { ...intents[0] });
    const hook = await fetch(`${second.base}/_api/bodega/v1/payments/webhooks/stripe/${siteId}`, { method: 'POST', headers, body: payload });
    expect(hook.status, await hook.clone().text()).toBe(200);
    const retry = await json(await fetch(`${second.base}/ecom/v1/checkouts/${checkoutId}/create-order-and-charge`, { method: 'POST', headers: shopper, body: JSON.stringify({ paymentToken: PM.visa }) }));
    const found = await json(await fetch(`${second.base}/ecom/v1/orders/search`, { method: 'POST', headers: key, body: JSON.stringify({ search: { filter: { checkoutId } } }) }));
    const orders = found.orders as { id: string; paymentStatus: string }[];
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ id: retry.orderId, paymentStatus: 'PAID' });
    expect([...stand.intents.values()].filter((i) => i.metadata.bodega_checkout === checkoutId)).toHaveLength(1);
    if (own && process.env.BODEGA_CITUS === '1') {
      // On Citus the orders were sharded by site: the guarantee held on a distributed table.
      expect(await own.query("SELECT partmethod FROM pg_dist_partition WHERE logicalrelid = 'orders'::regclass")).toEqual([{ partmethod: 'h' }]);
    }
    second.child.kill('SIGTERM');
    await second.exited;
  }, 180_000);
});
