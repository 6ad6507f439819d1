import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInApp, SmtpCapture, type SignInApp } from '../../test/sign-in.js';
import { testApp } from '../../test/harness.js';
import { apiKey, catalogLine, createProduct, placeOrder } from '../../test/commerce.js';
import * as orderStore from '../orders/store.js';
import { siteContext } from '../../platform/context.js';
import { orderLink, orderMails } from './mails.js';
import { DEFAULT_WEBHOOK_OPTIONS, WebhookWorker } from './worker.js';
import { TEST_TOKENS } from '../payments/service.js';

let smtp: SmtpCapture;
let t: SignInApp;

beforeAll(async () => {
  smtp = new SmtpCapture();
  await smtp.start();
  t = await signInApp({ smtpUrl: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

function worker(siteId: string, app = t.app): WebhookWorker {
  return new WebhookWorker(
    { db: t.db, now: () => new Date(), publicUrl: 'https://shop.example', mail: app.services.mail, keys: app.services.webhooks.keys },
    { ...DEFAULT_WEBHOOK_OPTIONS, sites: [siteId] },
  );
}

describe('order e-mails from the outbox', () => {
  it('an order sends ORDER_PLACED to the buyer and the owner, DOWNLOAD_LINKS with working links once paid, and ORDER_SHIPPED with the tracking', async () => {
    const site = await t.createSite({ name: 'Paper & Ink', ownerEmail: 'owner@paper.example', ownerPassword: 'Owner-pass-123' });
    const pen = await createProduct(t.app, site, { name: 'Fountain pen', priceData: { price: 40 } });
    const ebook = await createProduct(t.app, site, { name: 'Calligraphy e-book', priceData: { price: 9.5 }, productType: 'digital' });
    const book = Buffer.from('%PDF-1.4\n% calligraphy\n');
    const attached = await t.app.inject({
      method: 'POST', url: `/bodega/v1/digital-products/${ebook.id}/files?fileName=calligraphy.pdf`, headers: { ...apiKey(site), 'content-type': 'application/pdf' }, payload: book,
    });
    expect(attached.statusCode, attached.body).toBe(200);
    // Paid at once: the DOWNLOAD_LINKS mail goes out with the payment (services/digital), not with ORDER_PLACED.
    const { orderId } = await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(pen.id), catalogLine(ebook.id)], { email: 'buyer@paper.example', paymentToken: TEST_TOKENS.approve });
    const before = smtp.count();
    await worker(site.siteId).runUntilIdle();
    await t.app.services.mail.drain();

    const placed = await smtp.waitFor('buyer@paper.example', (m) => m.subject.includes('placed'), 10_000, before);
    expect(placed.subject).toMatch(/^Paper & Ink: order #\d+ placed$/);
    expect(placed.text).toContain('1 × Fountain pen');
    expect(placed.text).toContain(orderLink('https://shop.example', orderId));
    expect(placed.html).toContain('Paper &amp; Ink');
    expect(placed.html).toContain(`href="${orderLink('https://shop.example', orderId)}"`);
    const copy = await smtp.waitFor('owner@paper.example', (m) => m.subject.includes('new order'), 10_000, before);
    expect(copy.text).toContain('buyer@paper.example');
    const downloads = await smtp.waitFor('buyer@paper.example', (m) => m.subject.includes('downloads'), 10_000, before);
    expect(downloads.text).toContain('Calligraphy e-book: calligraphy.pdf');
    expect(downloads.text).not.toContain('Fountain pen');
    // The mailed link downloads the file.
    const link = /https?:\/\/[^/\s]+(\/bodega\/v1\/downloads\/\S+)/.exec(downloads.text)?.[1] ?? '';
    const file = await t.app.inject({ method: 'GET', url: link });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.rawPayload.equals(book)).toBe(true);

    const order = (await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: apiKey(site) })).json() as { order: { lineItems: { id: string; quantity: number }[] } };
    const shipped = await t.app.inject({
      method: 'POST',
      url: `/ecom/v1/fulfillments/orders/${orderId}/create-fulfillment`,
      headers: apiKey(site),
      payload: { fulfillment: { lineItems: [{ id: order.order.lineItems[0].id, quantity: 1 }], trackingInfo: { trackingNumber: '1Z999', shippingProvider: 'UPS', trackingLink: 'https://ups.example/1Z999' } } },
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    const later = smtp.count();
    await worker(site.siteId).runUntilIdle();
    await t.app.services.mail.drain();
    const mail = await smtp.waitFor('buyer@paper.example', (m) => m.subject.includes('shipped'), 10_000, later);
    expect(mail.text).toContain('Carrier: UPS');
    expect(mail.text).toContain('Tracking number: 1Z999');
    expect(mail.text).toContain('https://ups.example/1Z999');

    const stored = await t.app.services.mail.listForSite(site.siteId);
    expect(stored.filter((m) => m.kind.startsWith('orders.')).map((m) => m.kind).sort()).toEqual(['orders.DOWNLOAD_LINKS', 'orders.ORDER_PLACED', 'orders.ORDER_PLACED', 'orders.ORDER_SHIPPED']);
    expect(stored.filter((m) => m.kind.startsWith('orders.')).every((m) => m.status === 'SENT')).toBe(true);
  });

  it('a pickup order gets ORDER_READY_FOR_PICKUP instead of ORDER_SHIPPED', async () => {
    const site = await t.createSite({ name: 'Corner shop' });
    const pen = await createProduct(t.app, site, { name: 'Pencil', priceData: { price: 2 } });
    const { orderId } = await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(pen.id)], { email: 'pick@corner.example' });
    const order = await orderStore.findOrder(siteContext(t.db, site.siteId, () => new Date()), orderId);
    expect(order?.shipping).toBeTruthy();
    if (!order?.shipping) return;
    const pickup = { ...order, shipping: { ...order.shipping, kind: 'PICKUP' as const, instructions: 'Ring the bell' }, fulfillments: [{ id: 'f1', lineItems: [], createdDate: new Date() }] };
    const mails = orderMails('order.fulfillment_created', { storeName: 'Corner shop', publicUrl: 'https://corner.example', order: pickup, ownerEmails: [] });
    expect(mails.map((m) => [m.kind, m.to])).toEqual([['orders.ORDER_READY_FOR_PICKUP', 'pick@corner.example']]);
    expect(mails[0].text).toContain('Ring the bell');
  });

  it('without SMTP the order mail is kept in the stored outbox', async () => {
    const plain = await testApp({ db: t.db });
    try {
      const site = await plain.createSite({ name: 'Quiet shop' });
      const pen = await createProduct(plain.app, site, { name: 'Eraser', priceData: { price: 1 } });
      await placeOrder(plain.app, site, await plain.visitorToken(site), [catalogLine(pen.id)], { email: 'quiet@shop.example' });
      await worker(site.siteId, plain.app).runUntilIdle();
      const stored = await plain.app.services.mail.listForSite(site.siteId);
      expect(stored.map((m) => [m.kind, m.to, m.status])).toEqual([['orders.ORDER_PLACED', 'quiet@shop.example', 'STORED']]);
    } finally {
      await plain.close();
    }
  });
});
