import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { createProduct } from '../../test/commerce.js';

let t: TestApp;
let s: BackOfficeSite;

beforeAll(async () => {
  t = await testApp();
  s = await backOfficeSite(t);
});
afterAll(async () => t.close());

interface Job { id: string; status: string; total: number; processed: number; succeeded: number; failed: number; error?: string }

async function startImport(site: BackOfficeSite, body: Record<string, unknown>): Promise<Job> {
  const res = await t.app.inject({ method: 'POST', url: '/bodega/v1/import-jobs', headers: site.headers.owner, payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { job: Job }).job;
}

/** Polls the job until it ends, with a deadline (the job runs after the call answered). */
async function finished(site: BackOfficeSite, id: string): Promise<Job> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/import-jobs/${id}`, headers: site.headers.owner });
    expect(res.statusCode, res.body).toBe(200);
    const job = (res.json() as { job: Job }).job;
    if (job.status === 'DONE' || job.status === 'FAILED') return job;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${job.status} after 60 s`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

async function failures(site: BackOfficeSite, id: string): Promise<string[]> {
  const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/import-jobs/${id}/failures.csv`, headers: site.headers.owner });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/csv');
  return res.body.trim().split('\n');
}

async function productCount(site: BackOfficeSite): Promise<number> {
  const res = await t.app.inject({ method: 'POST', url: '/stores-reader/v1/products/query', headers: site.headers.owner, payload: { query: { paging: { limit: 1 } } } });
  return (res.json() as { totalResults: number }).totalResults;
}

describe('importing products', () => {
  it('imports 497 of 500 rows and reports exactly the 3 bad ones with their row and reason', async () => {
    const site = await backOfficeSite(t);
    const rows = Array.from({ length: 500 }, (_, i) => `Item ${i + 1},${(i % 50) + 1}.99,SKU-${i + 1},${i % 7}`);
    rows[16] = 'Item 17,abc,SKU-17,1'; // row 17: a price that is no number
    rows[249] = ',5.00,SKU-250,1'; // row 250: no name
    rows[498] = 'Item 499,5.00,SKU-499,-3'; // row 499: negative stock
    const job = await startImport(site, { target: 'products', format: 'csv', content: `name,price,sku,quantity\n${rows.join('\n')}\n` });
    expect(job.status).toBe('QUEUED');
    const done = await finished(site, job.id);
    expect(done).toMatchObject({ status: 'DONE', total: 500, processed: 500, succeeded: 497, failed: 3 });
    expect(await productCount(site)).toBe(497);
    const lines = await failures(site, job.id);
    expect(lines[0]).toBe('row,error,name,price,sku,quantity');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['17', '250', '499']);
    expect(lines[1]).toContain('price');
    expect(lines[2]).toContain('name');
    expect(lines[3]).toContain('quantity');
    expect(lines[3].endsWith('Item 499,5.00,SKU-499,-3')).toBe(true);
  });

  it('round-trips the export: a changed price updates the product, collections by slug', async () => {
    const site = await backOfficeSite(t);
    await t.app.inject({ method: 'POST', url: '/stores/v1/collections', headers: site.headers.owner, payload: { collection: { name: 'Garden' } } });
    const hose = await createProduct(t.app, site.site, { name: 'Hose', priceData: { price: 20 } });
    const exported = (await t.app.inject({ method: 'GET', url: '/bodega/v1/exports/products.csv', headers: site.headers.owner })).body;
    const [header, row] = exported.trim().split('\n');
    expect(row.endsWith(',true,,')).toBe(true); // inStock, no collections, no images
    const changed = `${header}\n${row.replace(',20.00,', ',24.50,').replace(/,true,,$/, ',true,garden,')}\n`;
    const job = await finished(site, (await startImport(site, { target: 'products', format: 'csv', content: changed })).id);
    expect(job, JSON.stringify(await failures(site, job.id))).toMatchObject({ status: 'DONE', succeeded: 1, failed: 0 });
    expect(await productCount(site)).toBe(1);
    const product = (await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${hose.id}`, headers: site.headers.owner })).json() as { product: { priceData: { price: number }; collectionIds: string[] } };
    expect(product.product.priceData.price).toBe(24.5);
    expect(product.product.collectionIds).toHaveLength(2);
  });

  it('reads JSON, and fails a file it cannot read at all with the reason', async () => {
    const site = await backOfficeSite(t);
    const json = await finished(site, (await startImport(site, { target: 'products', format: 'json', content: JSON.stringify([{ name: 'From JSON', price: '3.00', visible: false }, { name: 'No price' }]) })).id);
    expect(json).toMatchObject({ status: 'DONE', succeeded: 1, failed: 1 });
    expect((await failures(site, json.id))[1]).toMatch(/^2,price: a new product needs a price/);
    const broken = await finished(site, (await startImport(site, { target: 'products', format: 'csv', content: 'name,price\n"unclosed,1\n' })).id);
    expect(broken.status).toBe('FAILED');
    expect(broken.error).toMatch(/CSV/);
  });

  it('numbers the slugs of repeated names, and fails a row whose own slug is taken', async () => {
    const site = await backOfficeSite(t);
    await createProduct(t.app, site.site, { name: 'Twin', priceData: { price: 1 } });
    const job = await finished(site, (await startImport(site, { target: 'products', format: 'csv', content: 'name,price,slug\nTwin,2,\nTwin,3,\nOther,4,twin\n' })).id);
    expect(job).toMatchObject({ status: 'DONE', succeeded: 2, failed: 1 });
    expect((await failures(site, job.id))[1]).toMatch(/^3,.*twin/);
    const res = await t.app.inject({ method: 'POST', url: '/stores-reader/v1/products/query', headers: site.headers.owner, payload: { query: { filter: JSON.stringify({ name: 'Twin' }) } } });
    expect((res.json() as { products: { slug: string }[] }).products.map((p) => p.slug).sort()).toEqual(['twin', 'twin-2', 'twin-3']);
  });

  it("keeps one site's job from another", async () => {
    const job = await startImport(s, { target: 'products', format: 'csv', content: 'name,price\nSolo,1\n' });
    const other = await backOfficeSite(t);
    const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/import-jobs/${job.id}`, headers: other.headers.owner });
    expect(res.statusCode).toBe(404);
    await finished(s, job.id);
  });
});

describe('importing data-collection items', () => {
  it('converts cells to the field types and reports exactly the rows that do not fit', async () => {
    const site = await backOfficeSite(t);
    const created = await t.app.inject({
      method: 'POST', url: '/wix-data/v2/collections', headers: site.headers.owner,
      payload: { collection: { id: 'Plants', fields: [{ key: 'name', type: 'TEXT' }, { key: 'height', type: 'NUMBER' }, { key: 'indoor', type: 'BOOLEAN' }, { key: 'planted', type: 'DATE' }] } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const rows = Array.from({ length: 500 }, (_, i) => `Plant ${i + 1},${i + 0.5},${i % 2 === 0},2026-01-${String((i % 28) + 1).padStart(2, '0')}`);
    rows[2] = 'Plant 3,tall,true,2026-01-03';
    rows[99] = 'Plant 100,1,maybe,2026-01-04';
    rows[399] = 'Plant 400,1,true,not a date';
    const job = await finished(site, (await startImport(site, { target: 'data-items', dataCollectionId: 'Plants', format: 'csv', content: `name,height,indoor,planted\n${rows.join('\n')}` })).id);
    expect(job, (await failures(site, job.id)).slice(0, 3).join('\n')).toMatchObject({ status: 'DONE', total: 500, succeeded: 497, failed: 3 });
    const failed = parse((await failures(site, job.id)).join('\n'), { columns: true }) as { row: string; error: string; height: string }[];
    expect(failed.map((f) => [f.row, f.error])).toEqual([
      ['3', 'height: "tall" is not a number'],
      ['100', 'indoor: "maybe" is not true or false'],
      ['400', 'planted: "not a date" is not a date'],
    ]);
    expect(failed[0].height).toBe('tall');
    const query = await t.app.inject({ method: 'POST', url: '/wix-data/v2/items/query', headers: site.headers.owner, payload: { dataCollectionId: 'Plants', query: { filter: { name: 'Plant 2' } }, returnTotalCount: true } });
    expect(query.json()).toMatchObject({ dataItems: [{ data: { name: 'Plant 2', height: 1.5, indoor: false } }] });
    const count = await t.app.inject({ method: 'POST', url: '/wix-data/v2/items/count', headers: site.headers.owner, payload: { dataCollectionId: 'Plants' } });
    expect(count.json()).toMatchObject({ totalCount: 497 });
  });

  it('refuses a collection that does not exist', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/bodega/v1/import-jobs', headers: s.headers.owner, payload: { target: 'data-items', dataCollectionId: 'Nope', format: 'csv', content: 'a\n1' } });
    expect(res.statusCode).toBe(404);
  });
});
