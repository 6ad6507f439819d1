/**
 * The audit log page in Chromium: the owner reads what an API key and they themselves changed
 * (settings before → after, a webhook, an API key), filters it by action, exports it as CSV (which
 * is itself recorded) and sets the retention. Checked with axe and photographed at desktop and
 * phone width (e2e/output/admin-audit-*). Needs `npm run build` and /usr/bin/chromium.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium } from './chromium.js';
import { useShop } from './shop.js';
import { checkPage, signInToAdmin } from './admin-pages.js';

if (!hasChromium) console.warn(`Skipping the audit log browser tests: ${CHROMIUM} is missing.`);

const OWNER_EMAIL = 'owner@admin-audit.example.com';
const OWNER_PASSWORD = 'owner-password-1';

describe.skipIf(!hasChromium)('the audit log in Chromium', () => {
  const shop = useShop();

  // A sign-in, four pages and a download in Chromium: the default 30 s ran out on a loaded machine.
  it('lists, filters, exports and keeps the log as long as the owner says', { timeout: 120_000 }, async () => {
    const site = await shop().t.createShop({ name: 'Audit test store', ownerEmail: OWNER_EMAIL, ownerPassword: OWNER_PASSWORD });
    const app = shop().t.app;
    const key = { authorization: site.apiKey, 'wix-site-id': site.siteId };
    const changed = await app.inject({ method: 'PATCH', url: '/_api/bodega/v1/site-settings', headers: key, payload: { settings: { name: 'Audited store', captchaRequired: true } } });
    expect(changed.statusCode, changed.body).toBe(200);
    const hook = await app.inject({ method: 'POST', url: '/bodega/v1/webhooks', headers: key, payload: { subscription: { url: 'https://siem.example.com/in', eventTypes: ['audit.recorded'] } } });
    expect(hook.statusCode, hook.body).toBe(200);

    const owner = await shop().chromium.context.newPage();
    const errors: string[] = [];
    owner.on('pageerror', (e) => errors.push(e.message));
    await signInToAdmin(owner, site.origin, OWNER_EMAIL, OWNER_PASSWORD, '/admin/settings/api-keys');
    await owner.getByLabel('What is it for?').fill('Warehouse sync');
    await owner.getByRole('button', { name: 'Create key' }).click();
    await owner.getByText('Copy it now').waitFor();

    await owner.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit log' }).click();
    await owner.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    const table = owner.getByRole('table', { name: 'Audit log' });
    const settingsRow = table.getByRole('row', { name: /Changed store settings/ });
    await settingsRow.getByText('captchaRequired: false → true').waitFor();
    await settingsRow.getByText(/^name: Audit test store → Audited store$/).waitFor();
    await settingsRow.getByText('API key', { exact: false }).waitFor();
    await table.getByRole('row', { name: /Created a webhook/ }).waitFor();
    await table.getByRole('row', { name: /Created an API key/ }).getByText(OWNER_EMAIL).waitFor();
    await checkPage(owner, 'admin-audit-list');

    await owner.getByLabel('Action').selectOption('site_settings.updated');
    await owner.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(2); // the header and one entry
    await checkPage(owner, 'admin-audit-filtered', { fullPage: false });

    const download = owner.waitForEvent('download');
    await owner.getByRole('button', { name: 'Export as CSV' }).click();
    const csv = fs.readFileSync(await (await download).path(), 'utf8');
    expect(csv.split('\n')[0]).toContain('recordedDate,action,objectType');
    expect(csv).toContain('site_settings.updated');
    await owner.getByRole('button', { name: 'Clear' }).click();
    await table.getByRole('row', { name: /Exported the audit log/ }).waitFor();

    const retention = owner.getByLabel('Keep entries for (days)');
    await expect.poll(() => retention.inputValue()).toBe('365');
    await retention.fill('0');
    await owner.getByRole('button', { name: 'Save retention' }).click();
    await owner.getByText('At least 1 day').waitFor();
    await retention.fill('90');
    await owner.getByRole('button', { name: 'Save retention' }).click();
    await owner.getByText('Entries are kept 90 days.').waitFor();
    await table.getByRole('row', { name: /Changed the audit log’s retention/ }).getByText('retentionDays: 365 → 90').waitFor();
    await checkPage(owner, 'admin-audit-retention');
    expect(errors).toEqual([]);
    await owner.close();
  });
});
