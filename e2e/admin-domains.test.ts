/**
 * Domain verification in the back office, in Chromium: the owner adds a domain, sees it PENDING
 * with the TXT record to publish, checks too early (told what was missing), publishes the record
 * (in a DNS server the test runs on loopback, which the server asks) and verifies it; the domain
 * then routes the shop's pages. Photographed and axe-checked at desktop and phone width
 * (e2e/output/admin-domains-*). Needs `npm run build` and /usr/bin/chromium.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, launchChromium, type Chromium } from './chromium.js';
import { checkPage, signInToAdmin } from './admin-pages.js';
import { storefrontApp, type StorefrontTestApp } from '../packages/server/src/test/storefront.js';
import { startDnsServer, type TestDnsServer } from '../packages/server/src/test/dns-server.js';

if (!hasChromium) console.warn(`Skipping the domain browser tests: ${CHROMIUM} is missing.`);

const OWNER_EMAIL = 'owner@admin-domains.example.com';
const OWNER_PASSWORD = 'owner-password-1';

describe.skipIf(!hasChromium)('domain verification in the back office', () => {
  let t: StorefrontTestApp;
  let dns: TestDnsServer;
  let chromium: Chromium;
  beforeAll(async () => {
    dns = await startDnsServer();
    t = await storefrontApp({ domainProof: { dnsServers: [dns.address], timeoutMs: 3000 } });
    chromium = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await chromium?.close();
    await t?.close();
    await dns?.close();
  });

  it('shows a new domain PENDING with its TXT record, and verifies it once the record is published', async () => {
    const site = await t.createShop({ name: 'Domains test store', ownerEmail: OWNER_EMAIL, ownerPassword: OWNER_PASSWORD, demo: false });
    const name = `shop-${randomUUID().slice(0, 8)}.example`;
    const page = await chromium.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signInToAdmin(page, site.origin, OWNER_EMAIL, OWNER_PASSWORD, '/admin/settings');

    const domains = page.getByLabel('Domains');
    await domains.fill(`${await domains.inputValue()}\n${name}`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Store settings saved.').waitFor();
    const item = page.getByRole('listitem').filter({ has: page.getByText(name, { exact: true }) });
    await item.getByText('Pending').waitFor();
    await item.getByText(`_bodega.${name}`).waitFor();
    const token = await item.locator('dd code').nth(1).textContent();
    expect(token).toMatch(/^bodega-[0-9a-f]{40}$/);
    // The operator's own domain (the test shop's) is verified already.
    await page.getByRole('listitem').filter({ has: page.getByText(site.domain, { exact: true }) }).getByText('Verified').waitFor();

    await item.getByRole('button', { name: `Verify ${name}` }).click();
    await item.getByText(/Not verified yet: .*_bodega\./).waitFor();
    await checkPage(page, 'admin-domains-pending');
    expect(await t.app.services.sites.siteIdForHost(name)).toBeUndefined();

    dns.setTxt(`_bodega.${name}`, [token ?? '']);
    await item.getByRole('button', { name: `Verify ${name}` }).click();
    await page.getByText(`${name} is verified.`).waitFor();
    await item.getByText('Verified', { exact: true }).waitFor();
    await item.getByText('DNS record found').waitFor();
    await checkPage(page, 'admin-domains-verified');
    expect(await t.app.services.sites.siteIdForHost(name)).toBe(site.siteId);
    expect(errors).toEqual([]);
  }, 180_000);
});
