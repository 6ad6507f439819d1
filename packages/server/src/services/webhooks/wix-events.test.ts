/**
 * Issue 24, events: an official SDK app's handlers receive member and checkout events with the
 * whole entity (as the REST reads return it), and badge assignments and member abouts under
 * their Wix names, through `webhooks.process` of @wix/sdk.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppStrategy, createClient } from '@wix/sdk';
import { badges, members, membersAbout } from '@wix/members';
import { cart, checkout } from '@wix/ecom';
import { testApp, type TestApp } from '../../test/harness.js';
import { Receiver } from '../../test/webhooks.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { adminClient, newMember, signIn } from '../../test/members.js';
import { apiKey, catalogLine, createProduct } from '../../test/commerce.js';
import { DEFAULT_WEBHOOK_OPTIONS, WebhookWorker } from './worker.js';

process.env.WEBHOOKS_ALLOW_PRIVATE = 'true';

let t: TestApp;
let wixFetch: ReturnType<typeof redirectWixFetch>;
const receiver = new Receiver();

beforeAll(async () => {
  t = await testApp();
  wixFetch = redirectWixFetch(await listen(t.app));
  await receiver.start();
});
afterAll(async () => {
  wixFetch.restore();
  await receiver.close();
  await t.close();
});

describe('official SDK event handlers get whole entities and Wix event names', () => {
  it('onMemberUpdated, onCheckoutCreated, onBadgeAssigned and onMemberAboutCreated fire with their data', async () => {
    const site = await t.createSite();
    const publicKey = ((await t.app.inject({ method: 'GET', url: '/bodega/v1/webhooks/public-key', headers: apiKey(site) })).json() as { publicKey: string }).publicKey;
    const app = createClient({ auth: AppStrategy({ appId: 'my-app', publicKey }), modules: { members, membersAbout, badges, checkout, cart } });
    const seen: Record<string, unknown[]> = { member: [], checkout: [], badge: [], about: [], cart: [] };
    app.members.onMemberUpdated((e) => void seen.member.push(e.entity));
    app.checkout.onCheckoutCreated((e) => void seen.checkout.push(e.entity));
    app.cart.onCartUpdated((e) => void seen.cart.push(e.entity));
    app.badges.onBadgeAssigned((e) => void seen.badge.push(e.data));
    app.membersAbout.onMemberAboutCreated((e) => void seen.about.push(e.entity));
    receiver.answer = async (_n, body) => {
      await app.webhooks.process(body);
      return 200;
    };
    const sub = await t.app.inject({ method: 'POST', url: '/bodega/v1/webhooks', headers: apiKey(site), payload: { subscription: { url: receiver.url, eventTypes: ['wix.members.v1.member_updated', 'wix.ecom.v1.checkout_created', 'wix.ecom.v1.cart_updated', 'wix.badges.v3.badge_badge_assigned', 'wix.members.about.v2.member_about_created'], format: 'WIX' } } });
    expect(sub.statusCode, sub.body).toBe(200);

    const admin = adminClient(site);
    const memberId = await newMember(admin, { nickname: 'Fay' });
    await admin.members.updateMember(memberId, { profile: { nickname: 'Fay Baker' } });
    const badge = await admin.badges.createBadge({ title: 'Regular', backgroundColor: '#112233', textColor: '#FFFFFF' });
    await admin.badges.assignBadge(badge._id ?? '', [memberId]);
    const fay = await signIn(t, site, memberId);
    await fay.client.membersAbout.createMemberAbout({ content: { nodes: [{ type: 'PARAGRAPH', id: 'p1', nodes: [{ type: 'TEXT', id: 't1', nodes: [], textData: { text: 'I bake.', decorations: [] } }] }] } });
    const product = await createProduct(t.app, site, { name: 'Bread', priceData: { price: 4 } });
    const created = await t.app.inject({ method: 'POST', url: '/ecom/v1/checkouts', headers: { authorization: await t.visitorToken(site) }, payload: { channelType: 'WEB', lineItems: [catalogLine(product.id, 3)] } });
    expect(created.statusCode).toBe(200);

    const shopper = { authorization: await t.visitorToken(site) };
    const added = await t.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: shopper, payload: { lineItems: [catalogLine(product.id, 1)] } });
    expect(added.statusCode, added.body).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: shopper, payload: { lineItems: [catalogLine(product.id, 1)] } });
    expect(again.statusCode).toBe(200);

    // A worker like the server's but limited to this site: on a PostgreSQL shared by every test
    // file the server's own worker also delivers every other file's events until none is left,
    // which under load outlasted this test's time.
    const worker = new WebhookWorker(
      { db: t.db, now: () => new Date(), publicUrl: 'http://localhost:3000', mail: t.app.services.mail, keys: t.app.services.webhooks.keys, renderers: t.app.services.webhooks.renderers },
      { ...DEFAULT_WEBHOOK_OPTIONS, allowPrivate: true, sites: [site.siteId] },
    );
    await worker.runUntilIdle();

    const updated = seen.member as { _id?: string; profile?: { nickname?: string }; loginEmail?: string }[];
    expect(updated.length).toBeGreaterThan(0);
    expect(updated.at(-1)).toMatchObject({ _id: memberId, profile: { nickname: 'Fay Baker' } });
    expect(updated.at(-1)?.loginEmail).toEqual(expect.any(String));
    const checkouts = seen.checkout as { _id?: string; lineItems?: { quantity?: number }[] }[];
    expect(checkouts).toHaveLength(1);
    expect(checkouts[0]._id).toBe(created.json().checkout.id);
    expect(checkouts[0].lineItems?.map((l) => l.quantity)).toEqual([3]);
    const carts = seen.cart as { _id?: string; lineItems?: { quantity?: number }[]; subtotal?: { amount?: string } }[];
    expect(carts.length).toBeGreaterThan(0);
    expect(carts.at(-1)?._id).toBe(again.json().cart.id);
    expect(carts.at(-1)?.lineItems?.map((l) => l.quantity)).toEqual([2]);
    expect(seen.badge).toEqual([expect.objectContaining({ badgeId: badge._id, memberId })]);
    expect(seen.about).toHaveLength(1);
    expect(seen.about[0]).toMatchObject({ memberId });
  });
});
