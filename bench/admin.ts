/**
 * The back office at scale (`npm run bench -- admin`, DATABASE_URL for PostgreSQL): one site with
 * 50,000 products, 200,000 orders over a year and 20,000 members, cloned in SQL from a product and
 * an order made through the API (so every row reads like a real one). Then, as the signed-in
 * owner, the time each call takes at the server (app.inject: no network), one request at a time:
 * the first page of each admin list, a search in each, the command palette, the dashboard, and an
 * import of 10,000 products from CSV. Targets: lists and searches ≤ 150 ms p95, dashboard ≤ 300 ms
 * p95, import ≤ 60 s. This is a benchmark, not a test: it prints a table and fails nothing.
 * BENCH_PRODUCTS, BENCH_ORDERS, BENCH_MEMBERS, BENCH_SAMPLES and BENCH_IMPORT (0: none) change the sizes;
 * BENCH_KEEP=1 keeps the site for a look at the query plans.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { startServer } from './lib.js';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 50_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 200_000);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 20_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT ?? 10_000);
const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';

interface Row { name: string; p50: number; p95: number; target: number; unit: 'ms' | 's' }

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export default async function admin(): Promise<void> {
  const server = await startServer();
  const { app, db } = server;
  let siteId: string | undefined;
  const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
  try {
    const created = await app.services.sites.createSite({ name: 'bench admin', ownerEmail: 'owner@bench.example', ownerPassword: 'bench-owner-password' });
    siteId = created.site.siteId;
    const key = { authorization: created.apiKey, 'wix-site-id': siteId };
    const [owner] = await db.query<{ member_id: string }>("SELECT member_id FROM members WHERE site_id = $1 AND role = 'OWNER'", [siteId]);
    const session = await app.services.oauth.startSession(app.services.sites.contextFor(siteId), { clientId: created.clientId, role: 'member', subjectId: owner.member_id, memberRole: 'OWNER' });
    const asOwner = { authorization: `Bearer ${session.access_token}` };

    // Templates through the API.
    const call = async (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = key) => {
      const res = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
      if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res.json() as Record<string, unknown>;
    };
    const product = (await call('POST', '/stores/v1/products', { product: { name: 'Template', productType: 'physical', priceData: { price: 10 }, stock: { trackInventory: true, quantity: 1000 } } })).product as { id: string };
    const visitor = (await call('POST', '/oauth2/token', { clientId: created.clientId, grantType: 'anonymous' }, {})).access_token as string;
    const checkout = (await call('POST', '/ecom/v1/checkouts', {
      channelType: 'WEB', lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: product.id }, quantity: 2 }],
      checkoutInfo: { buyerInfo: { email: 'template@bench.example' }, shippingInfo: { shippingDestination: { address: { country: 'US', subdivision: 'US-NY', city: 'New York', addressLine: '1 Main St', postalCode: '10001' } } } },
    }, { authorization: visitor })).checkout as { id: string };
    const placed = await call('POST', `/ecom/v1/checkouts/${checkout.id}/create-order`, { id: checkout.id }, { authorization: visitor });
    const templateOrderId = placed.orderId as string;

    // Clones in SQL: names from word lists so searches find a realistic few.
    let started = performance.now();
    await db.query(
      `WITH words AS (SELECT ARRAY['Oak','Brass','Linen','Copper','Walnut','Stone','Wool','Cedar','Velvet','Marble','Bamboo','Clay'] AS a,
                             ARRAY['Lamp','Chair','Mug','Table','Vase','Rug','Shelf','Bowl','Clock','Mirror','Stool','Basket','Candle','Frame'] AS b)
       INSERT INTO products (site_id, product_id, numeric_id, slug, name, product_type, visible, sku, price_minor, discounted_minor, doc, created_at, updated_at)
       SELECT $1, gen_random_uuid()::text, 1000 + g, 'bench-' || g,
              a[1 + g % 12] || ' ' || b[1 + (g / 12) % 14] || ' ' || g, 'physical', g % 10 <> 0, 'SKU-' || g,
              100 + (g * 37) % 20000, 100 + (g * 37) % 20000,
              jsonb_set(jsonb_set(p.doc, '{quantity}', to_jsonb(g % 200)), '{trackInventory}', to_jsonb(g % 3 = 0)),
              now() - make_interval(mins => g), now() - make_interval(mins => g)
         FROM generate_series(1, $2::int) AS g, words, products p
        WHERE p.site_id = $1 AND p.product_id = $3`,
      [siteId, PRODUCTS, product.id],
    );
    await db.query(
      `INSERT INTO collection_products (site_id, collection_id, product_id, added_at)
       SELECT site_id, '00000000-000000-000000-000000000001', product_id, created_at FROM products WHERE site_id = $1 AND product_id <> $2`,
      [siteId, product.id],
    );
    console.log(`inserted ${PRODUCTS.toLocaleString('en')} products in ${seconds(started)} s`);

    started = performance.now();
    await db.query(
      `INSERT INTO orders (site_id, order_id, number, checkout_id, buyer_kind, buyer_id, email, status, payment_status, fulfillment_status,
         currency, total_minor, paid_minor, refunded_minor, stock_state, archived, doc, purchased_at, created_at, updated_at)
       SELECT $1, gen_random_uuid()::text, 20000 + g, NULL, o.buyer_kind, o.buyer_id, 'buyer' || (g % 20000) || '@bench.example',
              CASE WHEN g % 50 = 0 THEN 'CANCELED' ELSE 'APPROVED' END,
              CASE WHEN g % 7 = 0 THEN 'NOT_PAID' ELSE 'PAID' END,
              CASE WHEN g % 5 = 0 THEN 'NOT_FULFILLED' ELSE 'FULFILLED' END,
              o.currency, 500 + (g * 131) % 30000, CASE WHEN g % 7 = 0 THEN 0 ELSE 500 + (g * 131) % 30000 END, 0, o.stock_state, false, o.doc,
              now() - make_interval(secs => g * 157), now() - make_interval(secs => g * 157), now() - make_interval(secs => g * 157)
         FROM generate_series(1, $2::int) AS g, orders o
        WHERE o.site_id = $1 AND o.order_id = $3`,
      [siteId, ORDERS, templateOrderId],
    );
    console.log(`inserted ${ORDERS.toLocaleString('en')} orders (one every 157 s, a year back) in ${seconds(started)} s`);
    // The dashboard sums refunds by the day they were made: one paid order in 20 has half refunded two days later.
    await db.query(
      `INSERT INTO order_refunds (site_id, order_id, refund_id, amount_minor, created_at)
       SELECT site_id, order_id, 'bench-' || order_id, total_minor / 2, least(created_at + interval '2 days', now())
         FROM orders WHERE site_id = $1 AND payment_status = 'PAID' AND number % 20 = 1`,
      [siteId],
    );

    started = performance.now();
    await db.query(
      `INSERT INTO members (site_id, member_id, login_email, status, role, privacy_status, activity_status, slug, profile, contact, created_at, updated_at)
       SELECT $1, gen_random_uuid()::text, 'member' || g || '@bench.example', CASE WHEN g % 10 = 0 THEN 'PENDING' ELSE 'APPROVED' END, 'MEMBER',
              'PUBLIC', 'ACTIVE', 'bench-member-' || g, jsonb_build_object('nickname', 'Member ' || g),
              jsonb_build_object('firstName', 'First' || g, 'lastName', 'Last' || g, 'emails', jsonb_build_array(), 'phones', jsonb_build_array(),
                'addresses', jsonb_build_array(), 'customFields', jsonb_build_object()),
              now() - make_interval(secs => g), now() - make_interval(secs => g)
         FROM generate_series(1, $2::int) AS g`,
      [siteId, MEMBERS],
    );
    console.log(`inserted ${MEMBERS.toLocaleString('en')} members in ${seconds(started)} s`);
    for (const table of ['products', 'collection_products', 'orders', 'order_refunds', 'members']) await db.exec(`VACUUM ANALYZE ${table}`);

    const rows: Row[] = [];
    const measure = async (name: string, method: 'GET' | 'POST', url: string, payload: unknown, target: number) => {
      for (let i = 0; i < 3; i++) await call(method, url, payload, asOwner); // warm-up: plans and caches
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const t0 = performance.now();
        await call(method, url, payload, asOwner);
        times.push(performance.now() - t0);
      }
      rows.push({ name, p50: percentile(times, 50), p95: percentile(times, 95), target, unit: 'ms' });
    };

    const page = { paging: { limit: 50 } };
    await measure('products: first page', 'POST', '/stores-reader/v1/products/query', { query: page, includeHiddenProducts: true }, 150);
    await measure('products: first page by name', 'POST', '/stores-reader/v1/products/query', { query: { ...page, sort: JSON.stringify([{ fieldName: 'name', order: 'ASC' }]) }, includeHiddenProducts: true }, 150);
    // The back office's stock filter (a third of the products are tracked, 1 in 600 has none left).
    for (const stock of ['IN_STOCK', 'OUT_OF_STOCK', 'LOW_STOCK'] as const) {
      await measure(`products: ${stock.toLowerCase().replace(/_/g, ' ')}`, 'POST', '/bodega/v1/products/query', { query: page, stock }, 150);
      await measure(`products: ${stock.toLowerCase().replace(/_/g, ' ')}, by name`, 'POST', '/bodega/v1/products/query', { query: { ...page, sort: [{ fieldName: 'name', order: 'ASC' }] }, stock }, 150);
    }
    await measure('products: search "Walnut"', 'POST', '/stores-reader/v1/products/query', { query: { ...page, filter: JSON.stringify({ name: { $startsWith: 'Walnut' } }) }, includeHiddenProducts: true }, 150);
    await measure('orders: first page', 'POST', '/ecom/v1/orders/search', { search: { cursorPaging: { limit: 50 } } }, 150);
    await measure('orders: unpaid, first page', 'POST', '/ecom/v1/orders/search', { search: { filter: { paymentStatus: 'NOT_PAID' }, cursorPaging: { limit: 50 } } }, 150);
    await measure('orders: search by e-mail', 'POST', '/ecom/v1/orders/search', { search: { filter: { 'buyerInfo.email': { $startsWith: 'buyer1234' } }, cursorPaging: { limit: 50 } } }, 150);
    await measure('orders: search by number', 'POST', '/ecom/v1/orders/search', { search: { filter: { number: 120000 }, cursorPaging: { limit: 50 } } }, 150);
    await measure('members: first page', 'POST', '/members/v1/members/query', { query: page, fieldsets: ['FULL'] }, 150);
    await measure('members: search "member1234"', 'POST', '/members/v1/members/query', { query: page, search: { expression: 'member1234' }, fieldsets: ['FULL'] }, 150);
    await measure('command palette: search "oak"', 'GET', '/bodega/v1/search?q=oak', undefined, 150);
    await measure('command palette: search "buyer12"', 'GET', '/bodega/v1/search?q=buyer12', undefined, 150);
    await measure('dashboard: last 30 days', 'GET', '/bodega/v1/dashboard', undefined, 300);
    await measure('dashboard: last 365 days', 'GET', `/bodega/v1/dashboard?from=${new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10)}`, undefined, 300);

    // The import: a 10,000-row CSV started as a job, timed until the job is DONE.
    if (IMPORT_ROWS > 0) {
      const csv = ['name,price,sku,quantity,visible', ...Array.from({ length: IMPORT_ROWS }, (_, i) => `Imported item ${i + 1},${(i % 90) + 9}.99,IMP-${i + 1},${i % 40},true`)].join('\n');
      started = performance.now();
      const job = (await call('POST', '/bodega/v1/import-jobs', { target: 'products', format: 'csv', content: csv }, asOwner)).job as { id: string };
      let status: { status: string; succeeded: number; failed: number };
      for (;;) {
        status = (await call('GET', `/bodega/v1/import-jobs/${job.id}`, undefined, asOwner)).job as typeof status;
        if (status.status === 'DONE' || status.status === 'FAILED') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const importSeconds = (performance.now() - started) / 1000;
      rows.push({ name: `import ${IMPORT_ROWS.toLocaleString('en')} products (CSV job)`, p50: importSeconds, p95: importSeconds, target: 60, unit: 's' });
      if (status.status !== 'DONE' || status.succeeded !== IMPORT_ROWS) console.log(`import ended ${status.status}: ${status.succeeded} imported, ${status.failed} failed`);
    }

    const [load1, load5] = os.loadavg();
    console.log(`\nBack office at scale — ${server.database}; ${PRODUCTS.toLocaleString('en')} products, ${ORDERS.toLocaleString('en')} orders, ${MEMBERS.toLocaleString('en')} members on one site`);
    console.log(`${os.cpus().length} cores, node ${process.version}, load average ${load1.toFixed(2)} / ${load5.toFixed(2)} (1 / 5 min), ${SAMPLES} sequential requests each after 3 warm-ups, timed at the server (no network)`);
    console.log(['call'.padEnd(40), 'p50'.padStart(9), 'p95'.padStart(9), 'target'.padStart(9), ''].join(' '));
    for (const r of rows) {
      const f = (v: number) => (r.unit === 'ms' ? `${v.toFixed(1)} ms` : `${v.toFixed(1)} s`);
      console.log([r.name.padEnd(40), f(r.p50).padStart(9), f(r.p95).padStart(9), `≤ ${r.target} ${r.unit}`.padStart(9), r.p95 <= r.target ? 'ok' : 'OVER'].join(' '));
    }
  } finally {
    if (siteId && process.env.BENCH_KEEP) {
      console.log(`kept site ${siteId} (BENCH_KEEP)`);
      siteId = undefined;
    }
    if (siteId) await db.query('DELETE FROM sites WHERE site_id = $1', [siteId]).catch(() => undefined);
    for (const table of ['products', 'collection_products', 'order_refunds', 'orders', 'members', 'import_jobs']) {
      if (siteId) await db.query(`DELETE FROM ${table} WHERE site_id = $1`, [siteId]).catch(() => undefined);
    }
    await server.close();
  }
}
