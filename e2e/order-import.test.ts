/**
 * The back office's "Import orders" page in Chromium (issue 31): the owner goes from Import and
 * export to the page, uploads a CSV with a good Amazon order and two it refuses, reads one result per
 * order with the reason in words, downloads the refused orders' rows as a CSV, follows the imported order's link to its page, and sees the file
 * make no duplicate the second time. axe-clean, photographed at desktop and phone width. Needs
 * `npm run build` and /usr/bin/chromium.
 */
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium } from './chromium.js';
import { adminNav, checkPage, signInToAdmin } from './admin-pages.js';
import { useShop } from './shop.js';

if (!hasChromium) console.warn(`Skipping the order import browser test: ${CHROMIUM} is missing.`);

const PASSWORD = 'owner-password-1';
const FILE = [
  'orderId,source,number,createdDate,paymentStatus,fulfillmentStatus,currency,email,subtotal,shipping,tax,total,lineName,lineQuantity,linePrice',
  'AMZ-7001,AMAZON,701,2025-02-10T12:00:00Z,PAID,FULFILLED,USD,ada@example.com,30.00,4.50,0,34.50,Tea towel,2,9.00',
  'AMZ-7001,,,,,,,,,,,,Apron,1,12.00',
  'AMZ-7002,AMAZON,,,PAID,NOT_FULFILLED,EUR,,10.00,,,10.00,Hat,1,10.00',
  'AMZ-7003,AMAZON,,,PAID,NOT_FULFILLED,USD,,10.00,,,12.00,Hat,1,10.00',
].join('\n');

describe.skipIf(!hasChromium)('importing orders in the back office', () => {
  const shop = useShop();

  it('uploads a file, reads a result per order with the reasons in words, and opens the imported order', async () => {
    const ownerEmail = `owner.orderimport.${Date.now()}@example.com`;
    const site = await shop().t.createShop({ name: 'Order import store', ownerEmail, ownerPassword: PASSWORD });
    const page = await shop().chromium.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signInToAdmin(page, site.origin, ownerEmail, PASSWORD);
    await adminNav(page, 'Import & export');
    await page.getByRole('link', { name: 'Import orders' }).click();
    await page.getByRole('heading', { name: 'Import orders', level: 1 }).waitFor();
    await checkPage(page, 'admin-order-import');

    await page.getByLabel('CSV or JSON file').setInputFiles({ name: 'amazon-orders.csv', mimeType: 'text/csv', buffer: Buffer.from(FILE) });
    await page.getByRole('button', { name: 'Import orders' }).click();
    const results = page.getByRole('region', { name: 'One result per order of the file' });
    await page.getByText('1 imported, 0 already imported before, 2 refused.').waitFor();
    await results.getByRole('row', { name: /AMZ-7002/ }).getByText('Another currency').waitFor();
    await results.getByRole('row', { name: /AMZ-7003/ }).getByText("Amounts don't add up").waitFor();
    await results.getByRole('row', { name: /AMZ-7001/ }).getByText('Imported').waitFor();
    await checkPage(page, 'admin-order-import-results');

    // The failures file: the refused orders' rows with the spec's reason, as sent, to fix and import again.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download refused orders (CSV)' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('amazon-orders-refused-orders.csv');
    const text = fs.readFileSync(await saved.path(), 'utf8');
    expect(text.split('\n')[0]).toBe(`row,error,reason,${FILE.split('\n')[0]}`);
    const failures = parse(text, { columns: true }) as Record<string, string>[];
    expect(failures.map((f) => [f.row, f.reason, f.orderId, f.currency, f.total])).toEqual([
      ['3', 'ORDER_AND_SITE_CURRENCIES_ARE_INCONSISTENT', 'AMZ-7002', 'EUR', '10.00'],
      ['4', 'AMOUNTS_DO_NOT_ADD_UP', 'AMZ-7003', 'USD', '12.00'],
    ]);
    expect(failures[0].error).toBe('The order is in EUR and the shop sells in USD');

    await page.getByRole('button', { name: 'Import orders' }).click();
    await page.getByText('0 imported, 1 already imported before, 2 refused.').waitFor();
    await results.getByRole('row', { name: /AMZ-7001/ }).getByText('Already imported').waitFor();

    await results.getByRole('link', { name: '#701' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/admin/orders/'));
    await page.getByText('Tea towel').first().waitFor();
    await page.getByText('$34.50').first().waitFor();
    await checkPage(page, 'admin-order-imported', { axe: 'desktop' });
    expect(errors).toEqual([]);
  }, 120_000);
});
