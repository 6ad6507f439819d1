/**
 * The back office's catalog and data pages in Chromium: the owner filters products by stock,
 * exports the products CSV (one row per variant), imports a shirt with two options and its twelve
 * variants into a second, empty store with one bad product added (its failed rows come back in the
 * failures file with the reason), and finds the same product there; then gives a data collection
 * new permissions and an index. Every page touched is checked with axe at desktop and phone width
 * and photographed (e2e/output/admin-catalog-*). Needs `npm run build` and /usr/bin/chromium.
 */
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium } from './chromium.js';
import { useShop } from './shop.js';
import { checkPage, adminNav, signInToAdmin } from './admin-pages.js';

if (!hasChromium) console.warn(`Skipping the back-office catalog browser tests: ${CHROMIUM} is missing.`);

const PASSWORD = 'owner-password-1';

describe.skipIf(!hasChromium)('back-office catalog and data in Chromium', () => {
  const shop = useShop();

  /** A product as the catalog answers it, less what differs between two stores by nature. */
  async function productOf(siteKey: { apiKey: string; siteId: string }, name: string) {
    const res = await shop().t.app.inject({
      method: 'POST', url: '/stores-reader/v1/products/query', headers: { authorization: siteKey.apiKey, 'wix-site-id': siteKey.siteId },
      payload: { query: { filter: JSON.stringify({ name }) } },
    });
    const [p] = (res.json() as { products: Record<string, unknown>[] }).products;
    const { id: _id, numericId: _n, lastUpdated: _l, createdDate: _c, inventoryItemId: _i, collectionIds, media, variants, productPageUrl, ...rest } = p;
    // Each store answers on its own domain: the two are compared by path.
    const path = (url: string | undefined) => (url ? new URL(url).pathname : url);
    return {
      ...rest,
      productPagePath: (productPageUrl as { path: string }).path,
      collections: (collectionIds as string[]).length,
      images: (media as { items?: { image?: { url?: string } }[] }).items?.map((m) => path(m.image?.url)),
      variants: (variants as { choices: unknown; variant: unknown; stock: unknown }[]).map((v) => ({ choices: v.choices, variant: v.variant, stock: v.stock })),
    };
  }

  it('filters products by stock, round-trips a product with variants through CSV, and edits a collection\'s permissions and indexes', async () => {
    const n = Date.now();
    const first = await shop().t.createShop({ name: 'Catalog test store', ownerEmail: `owner.a.${n}@example.com`, ownerPassword: PASSWORD });
    const second = await shop().t.createShop({ name: 'Empty store', ownerEmail: `owner.b.${n}@example.com`, ownerPassword: PASSWORD, demo: false });
    const owner = await shop().chromium.context.newPage();
    const errors: string[] = [];
    owner.on('pageerror', (e) => errors.push(e.message));
    await signInToAdmin(owner, first.origin, `owner.a.${n}@example.com`, PASSWORD);

    // Stock: the demo's beanie has none left; the shirt's variants are all stocked.
    await adminNav(owner, 'Products');
    await owner.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
    await owner.getByRole('cell', { name: /Linen Camp Shirt/ }).first().waitFor();
    const rows = owner.getByRole('table', { name: 'Products' }).getByRole('link');
    await owner.getByLabel('Stock', { exact: true }).selectOption('OUT_OF_STOCK');
    await expect.poll(() => rows.allTextContents()).toEqual(['Wool Rib Beanie']);
    expect(owner.url()).toContain('stock=OUT_OF_STOCK');
    await owner.getByRole('row', { name: /Wool Rib Beanie/ }).getByText('Out of stock').waitFor();
    await checkPage(owner, 'admin-catalog-products-out-of-stock');
    await owner.getByLabel('Stock', { exact: true }).selectOption('LOW_STOCK');
    await expect.poll(async () => (await rows.allTextContents()).includes('Wool Rib Beanie')).toBe(true);
    await owner.getByLabel('Stock', { exact: true }).selectOption('IN_STOCK');
    await expect.poll(async () => { const names = await rows.allTextContents(); return names.includes('Linen Camp Shirt') && !names.includes('Wool Rib Beanie'); }).toBe(true);

    // Export: the shirt (Size × Colour) is twelve rows, one per variant.
    await adminNav(owner, 'Import & export');
    await owner.getByRole('heading', { name: 'Import and export', level: 1 }).waitFor();
    const download = owner.waitForEvent('download');
    await owner.getByRole('button', { name: 'Export products' }).click();
    const exported = fs.readFileSync(await (await download).path(), 'utf8');
    const all = parse(exported, { columns: true }) as Record<string, string>[];
    const shirtRows = all.filter((r) => r.name === 'Linen Camp Shirt');
    expect(shirtRows).toHaveLength(12);
    expect(shirtRows.map((r) => `${r.option1Value}/${r.option2Value}`).slice(0, 3)).toEqual(['S/Sand', 'S/Sage', 'S/Navy']);

    // The empty store gets the shirt's collection, then the shirt's rows and a product with a bad variant row.
    const other = await shop().chromium.context.newPage();
    other.on('pageerror', (e) => errors.push(e.message));
    await signInToAdmin(other, second.origin, `owner.b.${n}@example.com`, PASSWORD);
    await adminNav(other, 'Products');
    await other.getByRole('link', { name: 'Collections', exact: true }).click();
    await other.getByRole('heading', { name: 'Product collections' }).waitFor();
    await other.getByRole('button', { name: 'New collection' }).click();
    await other.getByRole('dialog', { name: 'New collection' }).getByLabel('Name').fill('Apparel');
    await other.getByRole('dialog', { name: 'New collection' }).getByRole('button', { name: 'Save collection' }).click();
    await other.getByRole('link', { name: 'Apparel' }).waitFor();
    await checkPage(other, 'admin-catalog-product-collections');
    const bad = [
      { name: 'Broken Cap', price: '12.00', option1Name: 'Size', option1Value: 'S', variantPrice: '12.00' },
      { name: 'Broken Cap', option1Name: 'Size', option1Value: 'M', variantPrice: 'twelve' },
    ];
    const file = stringify([...shirtRows, ...bad], { header: true, columns: Object.keys(all[0]) });
    await adminNav(other, 'Import & export');
    await other.getByRole('heading', { name: 'Import and export', level: 1 }).waitFor();
    await other.getByLabel('CSV or JSON file').setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await other.getByText('products.csv: 14 rows.').waitFor();
    await checkPage(other, 'admin-catalog-import-preview');
    await other.getByRole('button', { name: 'Import 14 rows' }).click();
    await other.getByText('14 of 14 rows read: 12 imported, 2 failed.').waitFor();
    const failures = other.waitForEvent('download');
    await other.getByRole('button', { name: 'Download the 2 failed rows' }).click();
    const failed = parse(fs.readFileSync(await (await failures).path(), 'utf8'), { columns: true }) as { row: string; error: string; name: string }[];
    expect(failed.map((f) => [f.row, f.name])).toEqual([['13', 'Broken Cap'], ['14', 'Broken Cap']]);
    expect(failed[1].error).toMatch(/^variantPrice: /);
    expect(failed[0].error).toMatch(/^not imported: row 14 of the same product failed: variantPrice/);
    await checkPage(other, 'admin-catalog-import-done');

    // The same product in both stores: options, every variant's price, SKU and stock, its collection.
    const there = await productOf(second, 'Linen Camp Shirt');
    expect(there).toEqual(await productOf(first, 'Linen Camp Shirt'));
    expect(there.variants).toHaveLength(12);
    await adminNav(other, 'Products');
    await other.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
    await other.locator('.loading').first().waitFor({ state: 'detached' });
    await checkPage(other, 'admin-catalog-products-imported');
    await other.getByRole('row', { name: /Linen Camp Shirt/ }).getByText('12 variants').waitFor();

    // A data collection: members may read and add; an index on the title, then dropped.
    await adminNav(owner, 'Data collections');
    await owner.getByRole('heading', { name: 'Data collections', level: 1 }).waitFor();
    await owner.getByLabel('ID', { exact: true }).fill('reviews');
    await owner.getByLabel('Display name').fill('Reviews');
    await owner.getByRole('button', { name: 'Create collection' }).click();
    await owner.getByRole('heading', { name: 'Reviews', level: 1 }).waitFor();
    await owner.getByLabel('Read items').selectOption('SITE_MEMBER');
    await owner.getByLabel('Add items').selectOption('SITE_MEMBER_AUTHOR');
    await owner.getByRole('button', { name: 'Save permissions' }).click();
    await owner.getByText('Permissions saved.').waitFor();
    await owner.getByLabel('Name', { exact: true }).fill('by title');
    await owner.getByLabel('Order', { exact: true }).selectOption('DESC');
    await owner.getByRole('button', { name: 'Create index' }).click();
    await owner.getByText('Index “by title” created.').waitFor();
    const indexRow = owner.getByRole('table', { name: 'Indexes of reviews' }).getByRole('row', { name: /by title/ });
    await indexRow.getByText('title ↓').waitFor();
    await indexRow.getByText('Ready').waitFor();
    await checkPage(owner, 'admin-catalog-data-collection');
    const key = { authorization: first.apiKey, 'wix-site-id': first.siteId };
    const collection = await shop().t.app.inject({ method: 'GET', url: '/wix-data/v2/collections/reviews', headers: key });
    expect(collection.json()).toMatchObject({ collection: { permissions: { read: 'SITE_MEMBER', insert: 'SITE_MEMBER_AUTHOR', update: 'ADMIN', remove: 'ADMIN' } } });
    const indexes = await shop().t.app.inject({ method: 'GET', url: '/wix-data/v2/indexes?dataCollectionId=reviews', headers: key });
    expect(indexes.json()).toMatchObject({ indexes: [{ name: 'by title', fields: [{ path: 'title', order: 'DESC' }], status: 'ACTIVE' }] });
    await indexRow.getByRole('button', { name: 'Drop index by title' }).click();
    await owner.getByRole('dialog', { name: 'Drop the index “by title”?' }).getByRole('button', { name: 'Drop index' }).click();
    await owner.getByText('Index “by title” dropped.').waitFor();
    await owner.getByRole('table', { name: 'Indexes of reviews' }).getByText('No indexes yet.').waitFor();

    await adminNav(owner, 'Data collections');
    await owner.getByRole('row', { name: /Reviews/ }).getByText('Site members', { exact: true }).waitFor();
    await checkPage(owner, 'admin-catalog-data-collections');

    expect(errors).toEqual([]);
    await owner.close();
    await other.close();
  }, 240_000);
});
