/**
 * The back office in Chromium, end to end: the owner signs in at /admin, approves a member who is
 * waiting, creates a product with two variants and stock 3; the member buys 2 in the shop; the
 * owner sees the order on the dashboard, marks it paid and fulfils it with a tracking number; the
 * member sees it fulfilled with the tracking number in their account. Then every other back-office
 * page, and a contributor who finds no API keys. Every page is checked with axe and photographed
 * (e2e/output/admin-*). The owner and the member use two host names of one site, so each has its
 * own cookies in the one browser. Needs `npm run build` and /usr/bin/chromium.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium } from './chromium.js';
import { checkOutWithPickup, freeShipping, ready, screenshots, useShop } from './shop.js';
import { checkPage, adminNav, submitSignIn } from './admin-pages.js';

if (!hasChromium) console.warn(`Skipping the back-office browser tests: ${CHROMIUM} is missing.`);

const OWNER_EMAIL = 'owner@admin-test.example.com';
const OWNER_PASSWORD = 'owner-password-1';

describe.skipIf(!hasChromium)('back office in Chromium', () => {
  const shop = useShop();

  it('runs the store: approve a member, create a product with variants, see the sale, mark it paid and fulfil it; a contributor has no API keys or webhooks and reads the store settings', async () => {
    const memberHost = `member-${Date.now()}.localhost`;
    const site = await shop().t.createShop({
      name: 'Admin test store', signupPolicy: 'owner-approval', ownerEmail: OWNER_EMAIL, ownerPassword: OWNER_PASSWORD,
      domains: [memberHost], allowedOrigins: [`http://${memberHost}:${shop().t.port}`],
    });
    const ownerUrl = site.origin;
    const memberUrl = `http://${memberHost}:${shop().t.port}`;
    const owner = await shop().chromium.context.newPage();
    const member = await shop().chromium.context.newPage();
    const errors: string[] = [];
    for (const page of [owner, member]) page.on('pageerror', (e) => errors.push(e.message));

    // A shopper who is not the owner sees a plain explanation, not the back office.
    await owner.goto(`${ownerUrl}/admin`);
    await ready(owner);
    await owner.getByRole('heading', { name: 'Sign in to the back office' }).waitFor();
    await checkPage(owner, 'admin-sign-in-gate', { axe: 'desktop' });
    await owner.getByRole('link', { name: 'Sign in' }).click();
    await owner.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    await submitSignIn(owner, OWNER_EMAIL, OWNER_PASSWORD);
    await owner.waitForURL(/\/admin$/);
    await owner.getByRole('heading', { name: 'Dashboard' }).waitFor();

    // A shopper registers; the store approves members, so they wait.
    const memberEmail = `buyer.${Date.now()}@example.com`;
    await member.goto(`${memberUrl}/auth/register`);
    await ready(member);
    await member.getByLabel('E-mail').fill(memberEmail);
    await member.getByLabel('Password', { exact: true }).fill('buyer-password-1');
    await member.getByRole('button', { name: 'Create account' }).click();
    await member.getByText('waiting for the store owner’s approval').waitFor();

    // The owner approves them from the pending list at the top of Members (reached with `g m`).
    await owner.keyboard.press('g');
    await owner.keyboard.press('m');
    await owner.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    const pending = owner.getByRole('region', { name: /Waiting for approval/ });
    await pending.getByText(memberEmail).waitFor();
    await checkPage(owner, 'admin-members');
    const nickname = memberEmail.split('@')[0];
    await pending.getByRole('button', { name: nickname, exact: true }).click();
    await owner.getByRole('dialog', { name: nickname }).getByText(memberEmail).waitFor();
    await checkPage(owner, 'admin-member-profile', { fullPage: false, axe: 'desktop' });
    await owner.keyboard.press('Escape');
    await pending.getByRole('button', { name: /^Approve/ }).click();
    await owner.getByText(/is approved and can sign in/).waitFor();
    await expect.poll(() => pending.count()).toBe(0);

    // A product with two variants (size S and M), 3 of each in stock.
    await adminNav(owner, 'Products');
    await owner.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
    await owner.getByRole('cell', { name: /Linen Camp Shirt/ }).first().waitFor();
    await checkPage(owner, 'admin-products');
    await owner.getByRole('link', { name: 'New product' }).click();
    await owner.getByRole('heading', { name: 'New product' }).waitFor();
    await owner.getByLabel('Name', { exact: true }).fill('Trail Mug');
    await owner.getByLabel('Description').fill('An enamel mug for the trail.');
    await owner.getByLabel('Price', { exact: true }).fill('20.00');
    await owner.getByLabel('SKU', { exact: true }).fill('MUG-TRAIL');
    await owner.getByLabel('Ribbon').fill('New');
    await owner.getByRole('button', { name: 'Add an option' }).click();
    await owner.getByLabel('Option 1 name').fill('Size');
    await owner.getByLabel('Option 1 choices').fill('S, M');
    await owner.getByLabel('Stock of S').fill('3');
    await owner.getByLabel('Stock of M').fill('3');
    // A variant's row is checked by the form's schema, its error tied to its input.
    await owner.getByLabel('Price of M').fill('22,00');
    await owner.getByRole('button', { name: 'Create product' }).click();
    await owner.getByText('Enter a price like 12.50').waitFor();
    expect(await owner.getByLabel('Price of M').getAttribute('aria-invalid')).toBe('true');
    await owner.getByLabel('Price of M').fill('22.00');
    await owner.getByRole('checkbox', { name: 'Kitchen' }).check();
    await checkPage(owner, 'admin-product-new', { axe: 'desktop' });
    await owner.getByRole('button', { name: 'Create product' }).click();
    await owner.getByText('Product created.').waitFor();
    await owner.getByRole('heading', { name: 'Trail Mug' }).waitFor();
    await expect.poll(() => owner.getByLabel('Stock of S').inputValue()).toBe('3');
    expect(await owner.getByLabel('Price of M').inputValue()).toBe('22');
    await checkPage(owner, 'admin-product-edit');

    // The member signs in and buys 2 of size S, paying later.
    await member.goto(`${memberUrl}/auth/sign-in`);
    await ready(member);
    await submitSignIn(member, memberEmail, 'buyer-password-1');
    await member.waitForURL(/\/account$/);
    await member.goto(`${memberUrl}/products/trail-mug`);
    await ready(member);
    await member.getByRole('heading', { name: 'Trail Mug' }).waitFor();
    await member.getByRole('radio', { name: 'S', exact: true }).check();
    await member.getByRole('button', { name: 'Increase quantity' }).click();
    await member.getByRole('button', { name: 'Add to cart' }).click();
    const drawer = member.getByRole('dialog', { name: /Your cart/ });
    await drawer.getByRole('link', { name: 'Trail Mug' }).waitFor();
    await drawer.getByRole('link', { name: /Check out/ }).or(drawer.getByRole('button', { name: /Check out/ })).first().click();
    await member.waitForURL(/\/checkout\?checkoutId=/);
    const { number, orderId } = await checkOutWithPickup(member, { email: memberEmail, firstName: 'Bea', lastName: 'Buyer' });

    // The owner sees it on the dashboard, marks it paid and fulfils it with a tracking number.
    await adminNav(owner, 'Dashboard');
    await owner.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const recent = owner.getByRole('region', { name: 'Recent orders' });
    await owner.reload();
    await ready(owner);
    await recent.getByRole('link', { name: `#${number}` }).waitFor();
    expect(await owner.getByTestId('today-revenue').textContent()).toContain('$');
    await owner.getByRole('region', { name: 'Low stock' }).getByText('Trail Mug').first().waitFor();
    await checkPage(owner, 'admin-dashboard');

    await adminNav(owner, 'Orders');
    await owner.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    await owner.getByLabel('Payment').selectOption('NOT_PAID');
    await owner.getByRole('link', { name: `#${number}` }).waitFor();
    await checkPage(owner, 'admin-orders');
    await owner.getByRole('link', { name: `#${number}` }).click();
    await owner.getByRole('heading', { name: `Order #${number}` }).waitFor();
    await checkPage(owner, 'admin-order');
    await freeShipping(owner); // picked up in store
    // The line shows its own total, price × quantity, as the subtotal does (not the tax-inclusive figure).
    await owner.getByRole('region', { name: 'Items' }).getByRole('row', { name: /Trail Mug/ }).getByRole('cell', { name: '$40.00', exact: true }).waitFor();
    await owner.getByRole('button', { name: 'Mark as paid' }).first().click();
    const payDialog = owner.getByRole('dialog', { name: `Mark order #${number} as paid?` });
    await checkPage(owner, 'admin-order-mark-paid', { fullPage: false, axe: 'desktop' });
    await payDialog.getByRole('button', { name: 'Mark as paid' }).click();
    await owner.getByText(`Order #${number} is marked as paid.`).waitFor();
    await owner.getByRole('button', { name: 'Fulfil' }).click();
    const fulfilDialog = owner.getByRole('dialog', { name: `Fulfil order #${number}` });
    await fulfilDialog.getByLabel('Carrier').fill('UPS');
    await fulfilDialog.getByLabel('Tracking number').fill('1Z999AA10123456784');
    await checkPage(owner, 'admin-order-fulfil', { fullPage: false, axe: 'desktop' });
    await fulfilDialog.getByRole('button', { name: 'Fulfil order' }).click();
    await owner.getByText(`Order #${number} is fulfilled, tracking number 1Z999AA10123456784.`).waitFor();
    await owner.getByRole('region', { name: 'Shipments' }).getByText('1Z999AA10123456784').waitFor();
    await owner.getByRole('region', { name: 'Timeline' }).getByText('Paid', { exact: true }).waitFor();
    await expect.poll(() => owner.locator('.status-row [data-status]').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual(['PAID', 'FULFILLED']);
    await checkPage(owner, 'admin-order-fulfilled');

    // The member sees FULFILLED and the tracking number in their account.
    await member.goto(`${memberUrl}/account/orders/${orderId}`);
    await ready(member);
    await member.getByRole('heading', { name: `Order #${number}` }).waitFor();
    await member.getByText('Fulfilled', { exact: true }).waitFor();
    await member.getByText('1Z999AA10123456784').waitFor();
    await member.bringToFront();
    await screenshots(member, 'admin-member-order-fulfilled');

    // The rest of the back office, each page axe-clean and photographed.
    await owner.keyboard.press('Control+k');
    const palette = owner.getByRole('dialog', { name: 'Jump to' });
    await palette.getByRole('combobox').fill('Trail');
    await palette.getByRole('option', { name: /Trail Mug/ }).waitFor();
    await checkPage(owner, 'admin-command-palette', { fullPage: false, axe: 'desktop' });
    await owner.keyboard.press('Enter');
    await owner.getByRole('heading', { name: 'Trail Mug' }).waitFor();
    await owner.keyboard.press('?');
    await owner.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await checkPage(owner, 'admin-shortcuts', { fullPage: false, axe: 'desktop' });
    await owner.keyboard.press('Escape');

    await adminNav(owner, 'Settings');
    await owner.getByLabel('Store name').waitFor();
    await checkPage(owner, 'admin-settings-store');
    const tabs = owner.getByRole('navigation', { name: 'Settings' });
    for (const [tab, name, heading] of [['Shipping & tax', 'settings-commerce', 'Shipping and tax'], ['Coupons', 'settings-coupons', 'Coupons'], ['Mail outbox', 'settings-mail', 'Mail outbox'], ['Webhooks', 'settings-webhooks', 'Webhooks']] as const) {
      await tabs.getByRole('link', { name: tab }).click();
      await owner.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await owner.locator('.loading').first().waitFor({ state: 'detached' });
      await checkPage(owner, `admin-${name}`);
    }
    await tabs.getByRole('link', { name: 'API keys' }).click();
    await owner.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await owner.getByLabel('What is it for?').fill('Warehouse sync');
    await owner.getByRole('button', { name: 'Create key' }).click();
    await owner.getByTestId('api-key-secret').waitFor();
    await checkPage(owner, 'admin-settings-api-keys');

    await adminNav(owner, 'Data collections');
    await owner.getByRole('heading', { name: 'Data collections', level: 1 }).waitFor();
    await owner.getByLabel('ID', { exact: true }).fill('notes');
    await owner.getByLabel('Display name').fill('Notes');
    await owner.getByRole('button', { name: 'Create collection' }).click();
    await owner.getByRole('heading', { name: 'Notes', level: 1 }).waitFor();
    await owner.getByRole('button', { name: 'Add item' }).click();
    await owner.getByRole('dialog', { name: 'New item' }).getByLabel(/Title/).fill('First note');
    await owner.getByRole('dialog', { name: 'New item' }).getByRole('button', { name: 'Save' }).click();
    await owner.getByRole('cell', { name: 'First note', exact: true }).waitFor();
    await checkPage(owner, 'admin-data-collection');
    await adminNav(owner, 'Data collections');
    await owner.getByRole('link', { name: 'Notes' }).waitFor();
    await checkPage(owner, 'admin-data-collections');

    await adminNav(owner, 'Import & export');
    await owner.getByRole('heading', { name: 'Import and export', level: 1 }).waitFor();
    await owner.getByLabel('What').selectOption('data-items');
    await owner.getByLabel('Collection').selectOption('notes');
    await owner.getByLabel('CSV or JSON file').setInputFiles({ name: 'notes.csv', mimeType: 'text/csv', buffer: Buffer.from('title\n"Second, with a comma"\nThird\n') });
    await owner.getByRole('cell', { name: 'Second, with a comma', exact: true }).waitFor();
    await checkPage(owner, 'admin-import-export');
    await owner.getByRole('button', { name: 'Import 2 rows' }).click();
    await owner.getByText('2 of 2 rows read: 2 imported, 0 failed.').waitFor();
    await checkPage(owner, 'admin-import-done', { axe: 'desktop' });

    // Bulk edit: two products get one new price, with progress.
    await adminNav(owner, 'Products');
    await owner.getByRole('checkbox', { name: 'Select Field Notebook' }).check();
    await owner.getByRole('checkbox', { name: 'Select Enamel Pin Set' }).check();
    await owner.getByRole('button', { name: 'Bulk edit' }).click();
    const bulk = owner.getByRole('dialog', { name: 'Edit 2 products' });
    await bulk.getByLabel('New price').fill('30');
    await bulk.getByRole('button', { name: 'Apply' }).click();
    await bulk.getByText('2 of 2 done.').waitFor();
    await checkPage(owner, 'admin-bulk-edit', { fullPage: false, axe: 'desktop' });
    await owner.keyboard.press('Escape');
    await expect.poll(() => owner.getByRole('row', { name: /Field Notebook|Enamel Pin Set/ }).getByRole('cell', { name: '$30.00' }).count()).toBe(2);

    await owner.getByRole('link', { name: 'Collections', exact: true }).click();
    await owner.getByRole('heading', { name: 'Product collections' }).waitFor();
    await owner.getByRole('button', { name: 'New collection' }).click();
    await owner.getByRole('dialog', { name: 'New collection' }).getByLabel('Name').fill('Summer');
    await owner.getByRole('dialog', { name: 'New collection' }).getByRole('button', { name: 'Save collection' }).click();
    await owner.getByRole('link', { name: 'Summer' }).waitFor();
    await checkPage(owner, 'admin-product-collections');

    // A contributor: the owner gives the member the role; signed in again, they find no API keys.
    await adminNav(owner, 'Members');
    await owner.getByRole('region', { name: 'All members' }).getByRole('row', { name: new RegExp(memberEmail.replace(/\./g, '\\.')) }).getByRole('button', { name: /^Actions for/ }).click();
    await owner.getByRole('menuitem', { name: 'Make a contributor' }).click();
    await owner.getByText(/is now contributor/).waitFor();
    await member.goto(`${memberUrl}/auth/sign-in?returnTo=${encodeURIComponent('/admin/settings')}`);
    await ready(member);
    await submitSignIn(member, memberEmail, 'buyer-password-1');
    await member.waitForURL(/\/admin\/settings$/);
    await member.getByLabel('Store name').waitFor();
    const settingsLinks = await member.getByRole('navigation', { name: 'Settings' }).getByRole('link').allTextContents();
    expect(settingsLinks).not.toContain('API keys');
    expect(settingsLinks, 'webhooks are the owner\'s (the role matrix)').not.toContain('Webhooks');
    await member.getByText('Contributor', { exact: true }).waitFor();
    // Site settings (domains among them) are the owner's: a contributor sees them, read-only.
    await member.getByText('Only the store’s owner changes these settings.').waitFor();
    expect(await member.getByLabel('Store name').isDisabled()).toBe(true);
    expect(await member.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await checkPage(member, 'admin-contributor-store-settings', { axe: 'desktop' });
    await member.goto(`${memberUrl}/admin/settings/api-keys`);
    await ready(member);
    await member.getByText('Only the store’s owner manages API keys.').waitFor();
    await checkPage(member, 'admin-contributor-api-keys', { axe: 'desktop' });

    expect(errors).toEqual([]);
    await owner.close();
    await member.close();
  }, 360_000);
});
