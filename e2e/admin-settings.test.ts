/**
 * The back office's settings in Chromium: the owner edits a coupon (switching it off) and deletes it (after a
 * confirmation), changes a shipping rule (a wrong amount is explained first) and the shop's
 * estimate charges the new price, and pauses, resumes, tests and deletes a webhook, replaying a
 * delivery from its log. Every page and dialog is checked with axe and photographed at desktop and
 * phone width (e2e/output/admin-settings-edit-*). Needs `npm run build` and /usr/bin/chromium.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium } from './chromium.js';
import { ready, useShop } from './shop.js';
import { checkPage, signInToAdmin } from './admin-pages.js';

if (!hasChromium) console.warn(`Skipping the settings browser tests: ${CHROMIUM} is missing.`);

const OWNER_EMAIL = 'owner@admin-settings.example.com';
const OWNER_PASSWORD = 'owner-password-1';

describe.skipIf(!hasChromium)('back-office settings in Chromium', () => {
  const shop = useShop();

  it('edits, deletes and creates a coupon, changes a shipping rule the shop then charges, and pauses, resumes and deletes a webhook', async () => {
    const site = await shop().t.createShop({ name: 'Settings test store', ownerEmail: OWNER_EMAIL, ownerPassword: OWNER_PASSWORD });
    const app = shop().t.app;
    const key = { authorization: site.apiKey, 'wix-site-id': site.siteId };
    const hook = await app.inject({ method: 'POST', url: '/bodega/v1/webhooks', headers: key, payload: { subscription: { url: 'https://hooks.example.com/bodega', eventTypes: ['order.created'] } } });
    expect(hook.statusCode, hook.body).toBe(200);

    const owner = await shop().chromium.context.newPage();
    const errors: string[] = [];
    owner.on('pageerror', (e) => errors.push(e.message));
    await signInToAdmin(owner, site.origin, OWNER_EMAIL, OWNER_PASSWORD, '/admin/settings/coupons');

    // Coupons: the demo's WELCOME10 becomes 15 % off with a limit; a wrong value is explained first.
    const coupons = owner.getByRole('table', { name: 'Coupons' });
    await coupons.getByRole('cell', { name: 'WELCOME10', exact: true }).waitFor();
    await checkPage(owner, 'admin-settings-edit-coupons');
    await owner.getByRole('button', { name: 'Edit WELCOME10' }).click();
    const edit = owner.getByRole('dialog', { name: 'Edit coupon WELCOME10' });
    await edit.getByLabel('Percent off').fill('150');
    await edit.getByRole('button', { name: 'Save coupon' }).click();
    await edit.getByText('A percent from 0.01 to 100').waitFor();
    await checkPage(owner, 'admin-settings-edit-coupon-edit', { fullPage: false });
    await edit.getByLabel('Name').fill('Welcome, fifteen off');
    await edit.getByLabel('Percent off').fill('15');
    await edit.getByLabel('Usage limit (optional)').fill('100');
    await edit.getByLabel('Shoppers can use it').uncheck();
    await edit.getByRole('button', { name: 'Save coupon' }).click();
    await owner.getByText('Coupon WELCOME10 saved.').waitFor();
    const row = coupons.getByRole('row', { name: /WELCOME10/ });
    await row.getByText('15 % off').waitFor();
    await row.getByText('Welcome, fifteen off').waitFor();
    await row.getByText('0 of 100').waitFor();
    await row.getByText('Switched off').waitFor();

    await owner.getByRole('button', { name: 'Delete WELCOME10' }).click();
    const confirm = owner.getByRole('dialog', { name: 'Delete coupon WELCOME10?' });
    await confirm.getByText('Shoppers can no longer use this code.').waitFor();
    await checkPage(owner, 'admin-settings-edit-coupon-delete', { fullPage: false });
    await confirm.getByRole('button', { name: 'Delete coupon' }).click();
    await owner.getByText('Coupon WELCOME10 deleted.').waitFor();
    await coupons.getByText('No coupons yet.').waitFor();
    await checkPage(owner, 'admin-settings-edit-coupons-empty');

    // A new coupon: the value field is named after the kind picked, so "5" is never ambiguous.
    const create = owner.locator('form', { has: owner.getByRole('heading', { name: 'New coupon' }) });
    await create.getByLabel('Percent off').waitFor();
    await create.getByLabel('Kind').selectOption('amount');
    await create.getByLabel('Name').fill('Five off');
    await create.getByLabel('Code').fill('five');
    await create.getByLabel('Amount off').fill('5');
    await create.getByRole('button', { name: 'Create coupon' }).click();
    await owner.getByText('Coupon FIVE created.').waitFor();
    await coupons.getByRole('row', { name: /FIVE/ }).getByText(/\$5\.00 off/).waitFor();

    // Shipping: standard delivery in the United States goes from 6.95 to 4.95.
    await owner.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Shipping & tax' }).click();
    await owner.getByRole('heading', { name: 'Shipping and tax', level: 1 }).waitFor();
    const us = owner.getByRole('group', { name: 'United States' });
    const standard = us.getByRole('group', { name: 'Rule 1: Standard delivery', exact: true });
    await expect.poll(() => standard.getByLabel('Price').inputValue()).toBe('6.95');
    // The demo's express option is offered on every order: it says so, with no "item count at least 0".
    const express = us.getByRole('group', { name: 'Rule 3: Express delivery', exact: true });
    expect(await express.getByLabel('Offered for').evaluate((e) => (e as HTMLSelectElement).selectedOptions[0]?.text)).toBe('every order');
    expect(await express.getByLabel('Items').count()).toBe(0);
    expect(await standard.getByLabel('Offered for').evaluate((e) => (e as HTMLSelectElement).selectedOptions[0]?.text)).toBe('an order total');
    await checkPage(owner, 'admin-settings-edit-commerce');
    // The save bar stays at the bottom of the window and says when something is not saved yet.
    const status = owner.getByTestId('save-status');
    expect(await status.textContent()).toBe('No unsaved changes.');
    await express.getByLabel('Price').fill('99');
    expect(await status.textContent()).toBe('You have unsaved changes.');
    await owner.getByRole('button', { name: 'Discard' }).click();
    expect(await express.getByLabel('Price').inputValue()).toBe('14.95');
    expect(await status.textContent()).toBe('No unsaved changes.');
    await standard.getByLabel('Price').fill('4,95');
    expect(await status.textContent()).toBe('You have unsaved changes.');
    const bar = await owner.getByRole('region', { name: 'Save changes' }).boundingBox();
    expect((bar?.y ?? 0) + (bar?.height ?? 0)).toBeLessThanOrEqual(owner.viewportSize()?.height ?? 0); // in view, not below the fold
    await checkPage(owner, 'admin-settings-commerce-unsaved', { fullPage: false });
    await owner.getByRole('button', { name: 'Save shipping and tax' }).click();
    await owner.getByText('One field needs a change before saving').waitFor();
    await standard.getByText('A number such as 5 or 4.95').waitFor();
    await expect.poll(() => standard.getByLabel('Price').evaluate((e) => e === document.activeElement)).toBe(true);
    // Not hidden behind the save bar.
    const field = await standard.getByLabel('Price').boundingBox();
    const barTop = (await owner.getByRole('region', { name: 'Save changes' }).boundingBox())?.y ?? 0;
    expect((field?.y ?? 0) + (field?.height ?? 0)).toBeLessThan(barTop);
    await checkPage(owner, 'admin-settings-edit-commerce-error');
    await standard.getByLabel('Price').fill('4.95');
    await owner.getByRole('button', { name: 'Save shipping and tax' }).click();
    await owner.getByText('Shipping, pickup, tax and inventory settings saved.').waitFor();
    await expect.poll(() => status.textContent()).toBe('No unsaved changes.');
    await owner.reload();
    await ready(owner);
    await expect.poll(() => owner.getByRole('group', { name: 'United States' }).getByRole('group', { name: 'Rule 1: Standard delivery', exact: true }).getByLabel('Price').inputValue()).toBe('4.95');

    // The weight unit, a region's own tax-on-shipping switch and the pickup place's address.
    await owner.getByLabel('Weight unit').selectOption('LB');
    const abroad = owner.getByRole('group', { name: 'Rest of the world' });
    await abroad.getByRole('group', { name: 'Rule 1: International delivery', exact: true }).getByLabel('Weight (lb)').waitFor();
    expect(await abroad.getByLabel('Tax on shipping here').evaluate((e) => (e as HTMLSelectElement).selectedOptions[0]?.text)).toBe('as set under Tax');
    await abroad.getByLabel('Tax on shipping here').selectOption('YES');
    const brooklyn = owner.getByRole('group', { name: 'Pick up at Bodega Brooklyn', exact: true });
    const address = brooklyn.getByRole('group', { name: 'Address of Pick up at Bodega Brooklyn (optional)' });
    expect(await address.getByLabel('City').inputValue()).toBe('Brooklyn');
    await address.getByLabel('Street and number').fill('1 Kent Avenue');
    await address.getByLabel('Country').fill('u');
    await owner.getByRole('button', { name: 'Save shipping and tax' }).click();
    await address.getByText('A two-letter country code such as US').waitFor();
    await expect.poll(() => address.getByLabel('Country').evaluate((e) => e === document.activeElement)).toBe(true);
    await checkPage(owner, 'admin-settings-edit-commerce-pickup-error');
    await address.getByLabel('Country').fill('us');
    await owner.getByRole('button', { name: 'Save shipping and tax' }).click();
    await owner.getByText('Shipping, pickup, tax and inventory settings saved.').waitFor();
    await expect.poll(() => status.textContent()).toBe('No unsaved changes.');
    const stored = (await app.inject({ method: 'GET', url: '/_api/bodega/v1/commerce-settings', headers: key })).json() as { settings: { weightUnit: string; shippingRegions: { id: string; taxShipping?: boolean }[]; pickupOptions: { address?: Record<string, unknown> }[] } };
    expect(stored.settings.weightUnit).toBe('LB');
    expect(stored.settings.shippingRegions.map((r) => [r.id, r.taxShipping])).toEqual([['us', undefined], ['international', true]]);
    expect(stored.settings.pickupOptions[0].address).toEqual({ country: 'US', subdivision: 'US-NY', city: 'Brooklyn', addressLine: '1 Kent Avenue', postalCode: '11249' });
    await owner.reload();
    await ready(owner);
    await expect.poll(() => owner.getByLabel('Weight unit').inputValue()).toBe('LB');
    expect(await owner.getByRole('group', { name: 'Rest of the world' }).getByLabel('Tax on shipping here').inputValue()).toBe('YES');
    await checkPage(owner, 'admin-settings-edit-commerce-saved');

    // The shop's estimate for a $10 order to the US now offers standard delivery at $4.95.
    const product = await app.inject({ method: 'POST', url: '/stores/v1/products', headers: key, payload: { product: { name: 'Sticker', productType: 'physical', priceData: { price: 10 } } } });
    const visitor = await shop().t.visitorToken(site);
    const cart = (url: string, payload: Record<string, unknown>) => app.inject({ method: 'POST', url: `/ecom/v1/carts/current${url}`, headers: { authorization: visitor }, payload });
    await cart('/add-to-cart', { lineItems: [{ catalogReference: { appId: '215238eb-22a5-4c36-9e7b-e7c08025e04e', catalogItemId: (product.json() as { product: { id: string } }).product.id }, quantity: 1 }] });
    const estimate = (await cart('/estimate-totals', { shippingAddress: { country: 'US', subdivision: 'US-TX' }, selectedShippingOption: { code: 'standard' } })).json() as { priceSummary: { shipping: { amount: string } } };
    expect(estimate.priceSummary.shipping.amount).toBe('4.95');

    // Webhooks: pause, resume, send a test, replay it from the log, delete.
    await owner.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    const hooks = owner.getByRole('table', { name: 'Webhooks' });
    const hookRow = hooks.getByRole('row', { name: /hooks\.example\.com/ });
    await hookRow.getByText('Active').waitFor();
    await checkPage(owner, 'admin-settings-edit-webhooks');
    await owner.getByRole('button', { name: 'Pause https://hooks.example.com/bodega' }).click();
    await owner.getByText(/paused: nothing is sent until you resume it/).waitFor();
    await hookRow.getByText('Paused', { exact: true }).waitFor();
    await checkPage(owner, 'admin-settings-edit-webhooks-paused');
    await owner.getByRole('button', { name: 'Resume https://hooks.example.com/bodega' }).click();
    await owner.getByText(/bodega resumed\./).waitFor();
    await hookRow.getByText('Active').waitFor();
    await owner.getByRole('button', { name: 'Send test to https://hooks.example.com/bodega' }).click();
    await owner.getByText('A test event is on its way').waitFor();
    await owner.getByRole('button', { name: 'Delivery log of https://hooks.example.com/bodega' }).click();
    const log = owner.getByRole('dialog', { name: 'Delivery log' });
    await log.getByRole('button', { name: /^Replay/ }).first().click();
    await log.getByText(/is sent again as a new delivery/).waitFor();
    await expect.poll(() => log.getByRole('button', { name: /^Replay/ }).count()).toBe(2);
    await log.getByText('a replay').waitFor();
    await checkPage(owner, 'admin-settings-edit-webhook-log', { fullPage: false });
    await owner.keyboard.press('Escape');
    await owner.getByRole('button', { name: 'Delete https://hooks.example.com/bodega' }).click();
    const remove = owner.getByRole('dialog', { name: 'Delete this webhook?' });
    await checkPage(owner, 'admin-settings-edit-webhook-delete', { fullPage: false });
    await remove.getByRole('button', { name: 'Delete webhook' }).click();
    await owner.getByText('Webhook to https://hooks.example.com/bodega deleted.').waitFor();
    await hooks.getByText('No webhooks.').waitFor();

    expect(errors).toEqual([]);
    await owner.close();
  }, 240_000);
});
