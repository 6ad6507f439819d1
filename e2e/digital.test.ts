/**
 * Digital goods in Chromium, on the demo store: the merchant attaches a file to the Slow Brew
 * Recipe Guide in the back office (upload with a progress bar); a member buys the guide, gets the
 * DOWNLOAD_LINKS mail over SMTP, and downloads the PDF from the account's Downloads page; a guest
 * asks for the links again. Checked with axe and photographed (e2e/output/).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, CHROMIUM } from './chromium.js';
import { checkPage, signInToAdmin } from './admin-pages.js';
import { billAndPayByCard, ready, useShop, type ShopSite } from './shop.js';

if (!hasChromium) console.warn(`Skipping the digital goods browser tests: ${CHROMIUM} is missing.`);

const OWNER = { email: 'owner@brew.example', password: 'Owner-pass-123' };

async function register(page: Page, site: ShopSite, email: string, mail: ReturnType<ReturnType<typeof useShop>>['mail']) {
  await page.goto(`${site.url}/auth/register?returnTo=${encodeURIComponent('/products/slow-brew-recipe-guide')}`);
  await ready(page);
  const before = mail.count();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('a-good-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
  const sent = await mail.waitFor(email, (m) => /verification code/i.test(m.subject), 10_000, before);
  await page.getByLabel('Verification code').fill(/\b(\d{6})\b/.exec(sent.text)?.[1] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(/\/products\/slow-brew-recipe-guide$/);
  await page.getByRole('button', { name: /account menu/ }).waitFor();
}

async function payByCard(page: Page, email: string) {
  await page.getByRole('heading', { name: 'Checkout' }).waitFor();
  await expect.poll(() => page.getByLabel('E-mail').inputValue()).toBe(email);
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  // Nothing to ship: pickup, with no location to choose.
  await page.getByRole('radio', { name: 'Pick up in store' }).check();
  await billAndPayByCard(page);
}

describe.skipIf(!hasChromium)('digital goods in Chromium', () => {
  const shop = useShop();

  it('the merchant uploads a file with progress; a member buys the guide and downloads it from the Downloads page', async () => {
    const { t, mail, chromium } = shop();
    const created = await t.createShop({ name: 'Bodega demo store', signupPolicy: 'email-verification', ownerEmail: OWNER.email, ownerPassword: OWNER.password });
    const site: ShopSite = { ...created, url: created.origin };

    // 1. The back office: the guide already has its PDF (seeded); the merchant adds a second file.
    const admin = await chromium.context.newPage();
    await signInToAdmin(admin, site.url, OWNER.email, OWNER.password, '/admin/products');
    await admin.getByRole('link', { name: 'Slow Brew Recipe Guide' }).first().click();
    const panel = admin.getByRole('region', { name: 'Files to download' });
    await panel.getByText('slow-brew-recipe-guide.pdf').waitFor();
    await panel.getByLabel('Add a file').setInputFiles({ name: 'brew-log.txt', mimeType: 'text/plain', buffer: Buffer.from('Date | Coffee | Grind | Time | Notes\n'.repeat(2000)) });
    await panel.getByText('Uploaded brew-log.txt.').waitFor();
    await panel.getByText('brew-log.txt', { exact: true }).waitFor();
    await checkPage(admin, 'digital-admin-files');
    await admin.close();

    // 2. A member buys the guide, paying by card.
    const page = await chromium.context.newPage();
    const email = `reader.${Date.now()}@example.com`;
    await register(page, site, email, mail);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('dialog', { name: /Your cart/ }).getByRole('link', { name: /View cart/ }).click();
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.waitForURL(/\/checkout\?checkoutId=/);
    const before = mail.count();
    await payByCard(page, email);
    await page.getByRole('button', { name: /Place order/ }).click();
    await page.waitForURL(/\/checkout\/thank-you\?orderId=/);

    // 3. The mailed links work.
    const sent = await mail.waitFor(email, (m) => /your downloads/i.test(m.subject), 20_000, before);
    expect(sent.text).toContain('Slow Brew Recipe Guide: slow-brew-recipe-guide.pdf');
    const mailed = /https?:\/\/\S+\/bodega\/v1\/downloads\/\S+/.exec(sent.text)?.[0] ?? '';
    // The link is on the shop's own host; the test's HTTP client reaches the same server by its address.
    const direct = (url: string) => `${t.url}${new URL(url).pathname}`;
    const fromMail = await page.request.get(direct(mailed));
    expect(fromMail.status()).toBe(200);
    expect((await fromMail.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // 4. The Downloads page in the account: fresh links, downloads left.
    await page.goto(`${site.url}/account/downloads`);
    await page.getByRole('heading', { name: 'Downloads' }).waitFor();
    const link = page.getByRole('link', { name: 'Download slow-brew-recipe-guide.pdf' });
    await link.waitFor();
    await page.getByText('4 of 5 downloads left', { exact: false }).first().waitFor();
    await checkPage(page, 'digital-account-downloads');
    const href = (await link.getAttribute('href')) ?? '';
    const file = await page.request.get(direct(href));
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('application/pdf');
    expect(file.headers()['content-disposition']).toContain('slow-brew-recipe-guide.pdf');
    expect((await file.body()).toString('latin1')).toMatch(/^%PDF-1\.4[\s\S]*%%EOF\n$/);
    const part = await page.request.get(direct(href), { headers: { range: 'bytes=0-7' } });
    expect(part.status()).toBe(206);
    expect((await part.body()).toString()).toBe('%PDF-1.4');

    // 5. A changed link opens a page that says what happened.
    await page.goto(`${href.slice(0, -3)}AAA`);
    await page.getByRole('heading', { name: 'This download is not available' }).waitFor();
    await checkPage(page, 'digital-link-refused');

    // 6. A guest asks for the links again with the order number and e-mail.
    const guest = await chromium.context.newPage();
    await guest.goto(`${site.url}/downloads`);
    await ready(guest);
    await guest.getByLabel('Order number').fill('10001');
    await guest.getByLabel('E-mail').fill(email);
    const again = mail.count();
    await guest.getByRole('button', { name: 'Mail me the links' }).click();
    await guest.getByText(/its links are on their way/).waitFor();
    await checkPage(guest, 'digital-guest-request');
    await mail.waitFor(email, (m) => /your downloads/i.test(m.subject), 20_000, again);
    await guest.close();
    await page.close();
  }, 240_000);
});
