/**
 * Reviews and back-in-stock requests in the back office, in Chromium (issue 24): the owner finds a
 * member's review on the Reviews page, replies (the shop shows the reply), rejects it (the shop no
 * longer shows it, nor its rating), and reads who asked about a sold-out size on the product's page.
 * axe-clean, photographed at desktop and phone width. Needs `npm run build` and /usr/bin/chromium.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium } from './chromium.js';
import { apiKey, memberToken, STORES_APP_ID } from '../packages/server/src/test/commerce.js';
import { adminNav, checkPage, signInToAdmin } from './admin-pages.js';
import { ready, useShop } from './shop.js';

if (!hasChromium) console.warn(`Skipping the back-office reviews browser tests: ${CHROMIUM} is missing.`);

const PASSWORD = 'owner-password-1';

describe.skipIf(!hasChromium)('reviews and back-in-stock in the back office', () => {
  const shop = useShop();

  it('the owner replies to and rejects a review, and reads the back-in-stock requests of a product', { timeout: 90_000 }, async () => {
    const ownerEmail = `owner.reviews.${Date.now()}@example.com`;
    const site = await shop().t.createShop({ name: 'Reviews test store', ownerEmail, ownerPassword: PASSWORD });
    const tote = site.content.products.find((p) => p.slug === 'waxed-canvas-tote');
    const shirt = site.content.products.find((p) => p.slug === 'linen-camp-shirt');
    if (!tote || !shirt) throw new Error('demo content without the tote and the shirt');
    const member = await memberToken(shop().t.app, site);
    const written = await shop().t.app.inject({ method: 'POST', url: '/reviews/v1/reviews', headers: { authorization: member.token },
      payload: { review: { namespace: 'stores', entityId: tote.id, content: { rating: 2, title: 'Strap too short', body: 'Hard to wear across the body.' } } } });
    expect(written.statusCode, written.body).toBe(200);
    const variants = (await shop().t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${shirt.id}`, headers: apiKey(site) })).json().product.variants as { id: string; choices: Record<string, string> }[];
    const xlNavy = variants.find((v) => v.choices.Size === 'XL' && v.choices.Colour === 'Navy')?.id;
    const asked = await shop().t.app.inject({ method: 'POST', url: '/back-in-stock-service/v1/back-in-stock-notification-requests', headers: { authorization: await shop().t.visitorToken(site) },
      payload: { request: { catalogReference: { catalogItemId: shirt.id, appId: STORES_APP_ID, options: { variantId: xlNavy } }, email: 'waiting@example.com' } } });
    expect(asked.statusCode, asked.body).toBe(200);

    const owner = await shop().chromium.context.newPage();
    const errors: string[] = [];
    owner.on('pageerror', (e) => errors.push(e.message));
    await signInToAdmin(owner, site.origin, ownerEmail, PASSWORD);
    await adminNav(owner, 'Reviews');
    await owner.getByRole('heading', { name: 'Reviews', level: 1 }).waitFor();
    const row = owner.getByRole('row', { name: /Strap too short/ });
    await row.getByText('Waxed Canvas Tote').waitFor();
    await checkPage(owner, 'admin-reviews');

    await row.getByRole('button', { name: /^Reply/ }).click();
    const dialog = owner.getByRole('dialog', { name: 'Reply to the review' });
    await dialog.getByRole('button', { name: 'Publish reply' }).click();
    await dialog.getByText('Write the reply').waitFor();
    await dialog.getByLabel('Reply').fill('Thanks! A longer strap is on its way in the next batch.');
    await checkPage(owner, 'admin-reviews-reply', { fullPage: false });
    await dialog.getByRole('button', { name: 'Publish reply' }).click();
    await owner.getByText('Your reply is published under the review.').waitFor();

    const shopper = await shop().chromium.context.newPage();
    shopper.on('pageerror', (e) => errors.push(e.message));
    await shopper.goto(`${site.origin}/products/waxed-canvas-tote`);
    await ready(shopper);
    await shopper.getByText('A longer strap is on its way in the next batch.', { exact: false }).waitFor();
    await shopper.getByRole('link', { name: '2.0 · 1 review' }).waitFor();

    await row.getByRole('button', { name: /^Reject/ }).click();
    await owner.getByText(/is rejected: the shop no longer shows it/).waitFor();
    await row.locator('[data-status="REJECTED"]').waitFor();
    await owner.getByLabel('Status').selectOption('REJECTED');
    await owner.getByRole('row', { name: /Strap too short/ }).waitFor();
    await shopper.reload();
    await ready(shopper);
    await shopper.getByText('No reviews yet.').waitFor();
    expect(await shopper.getByRole('link', { name: /1 review/ }).count()).toBe(0);

    await owner.goto(`${site.origin}/admin/products/${shirt.id}`);
    const requests = owner.getByRole('region', { name: 'Back-in-stock requests' });
    await requests.getByRole('row', { name: /waiting@example\.com/ }).getByText('XL · Navy').waitFor();
    await requests.getByText('1 waiting', { exact: false }).waitFor();
    await checkPage(owner, 'admin-product-back-in-stock');
    expect(errors).toEqual([]);
  });
});
