// Digital goods through HTTP: a file attached in the back office, bought, mailed as signed links,
// downloaded whole and by range, counted to its limit, expired by the clock, refused for another
// buyer, a refunded or canceled order, and re-sent to a guest who gives the order number and e-mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { apiKey, catalogLine, createProduct, memberToken, placeOrder, type WireProduct } from '../../test/commerce.js';
import { TEST_TOKENS } from '../payments/service.js';

let t: TestApp;
let site: TestSite;
let guide: WireProduct;
let lamp: WireProduct;
let now = new Date('2026-05-01T10:00:00.000Z');
const PDF = Buffer.from('%PDF-1.4\n% a small test file\n'.padEnd(3000, '.'));

beforeAll(async () => {
  t = await testApp({ now: () => now });
  site = await t.createSite();
  guide = await createProduct(t.app, site, { name: 'Field Guide', productType: 'digital', priceData: { price: 12 } });
  lamp = await createProduct(t.app, site, { name: 'Lamp', priceData: { price: 40 }, weight: 1 });
});
afterAll(async () => t.close());

function upload(productId: string, body: Buffer, contentType: string, fileName: string, headers: Record<string, string> = apiKey(site)) {
  return t.app.inject({ method: 'POST', url: `/bodega/v1/digital-products/${productId}/files?fileName=${encodeURIComponent(fileName)}`, headers: { ...headers, 'content-type': contentType }, payload: body });
}

async function mailsTo(address: string): Promise<{ subject: string; text_body: string; html_body: string }[]> {
  return t.db.query("SELECT subject, text_body, html_body FROM mail_outbox WHERE site_id = $1 AND kind = 'orders.DOWNLOAD_LINKS' AND to_address = $2 ORDER BY created_at", [site.siteId, address]);
}

function linksIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/\S+\/bodega\/v1\/downloads\/\S+/g)].map((m) => new URL(m[0]).pathname);
}

function download(path: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: path, headers });
}

async function buy(email: string, token?: string): Promise<{ orderId: string; links: string[] }> {
  const before = (await mailsTo(email)).length;
  const { orderId } = await placeOrder(t.app, site, token ?? await t.visitorToken(site), [catalogLine(guide.id, 1)], { paymentToken: TEST_TOKENS.approve, email });
  const mails = await mailsTo(email);
  expect(mails.length).toBe(before + 1);
  return { orderId, links: linksIn(mails.at(-1)?.text_body ?? '') };
}

describe('attaching files in the back office', () => {
  it('stores an upload and lists it with the product\'s link rules (defaults 7 days, 5 downloads)', async () => {
    const res = await upload(guide.id, PDF, 'application/pdf', 'Field guide — 2026.pdf');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().file).toMatchObject({ productId: guide.id, fileName: 'Field guide — 2026.pdf', contentType: 'application/pdf', size: PDF.length });
    const listed = await t.app.inject({ method: 'GET', url: `/bodega/v1/digital-products/${guide.id}`, headers: apiKey(site) });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toMatchObject({ files: [{ id: res.json().file.id }], rules: { linkDays: 7, maxDownloads: 5 } });
    const audit = await t.db.query<{ action: string }>("SELECT action FROM audit_log WHERE site_id = $1 AND action LIKE 'digital_file.%'", [site.siteId]);
    expect(audit.map((a) => a.action)).toEqual(['digital_file.attached']);
  });

  it('refuses a type it does not sell, a name that does not match the type, and a physical product', async () => {
    const exe = await upload(guide.id, Buffer.from('MZ'), 'application/x-msdownload', 'setup.exe');
    expect(exe.statusCode).toBe(415);
    expect(exe.json().details.applicationError.code).toBe('FILE_TYPE_NOT_ALLOWED');
    const mismatch = await upload(guide.id, PDF, 'application/pdf', 'guide.zip');
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().details.validationError.fieldViolations[0].field).toBe('fileName');
    const physical = await upload(lamp.id, PDF, 'application/pdf', 'lamp.pdf');
    expect(physical.statusCode).toBe(400);
    expect(physical.json().details.applicationError.code).toBe('NOT_A_DIGITAL_PRODUCT');
    const unknown = await upload('no-such-product', PDF, 'application/pdf', 'x.pdf');
    expect(unknown.statusCode).toBe(404);
  });

  it('sets the link rules (audited)', async () => {
    const res = await t.app.inject({ method: 'PUT', url: `/bodega/v1/digital-products/${guide.id}/rules`, headers: apiKey(site), payload: { linkDays: 7, maxDownloads: 3 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rules).toEqual({ linkDays: 7, maxDownloads: 3 });
    const bad = await t.app.inject({ method: 'PUT', url: `/bodega/v1/digital-products/${guide.id}/rules`, headers: apiKey(site), payload: { linkDays: 0, maxDownloads: 3 } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('buying and downloading', () => {
  it('mails signed links once paid; the file streams whole and by range, counted to the limit', async () => {
    const { links } = await buy('ada@example.com');
    expect(links).toHaveLength(1);
    const whole = await download(links[0]);
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.rawPayload.equals(PDF)).toBe(true);
    expect(whole.headers).toMatchObject({
      'content-type': 'application/pdf', 'accept-ranges': 'bytes', 'cache-control': 'private, no-store', 'content-length': String(PDF.length),
      'content-disposition': 'attachment; filename="Field guide  2026.pdf"; filename*=UTF-8\'\'Field%20guide%20%E2%80%94%202026.pdf',
    });
    const part = await download(links[0], { range: 'bytes=0-7' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-7/${PDF.length}`);
    expect(part.body).toBe('%PDF-1.4');
    const head = await t.app.inject({ method: 'HEAD', url: links[0] });
    expect(head.statusCode).toBe(200);
    expect((await download(links[0], { range: `bytes=-10` })).statusCode).toBe(206);
    // Three downloads counted (the HEAD was not): the fourth is refused, as JSON for an API client and as a page for a browser.
    const over = await download(links[0]);
    expect(over.statusCode).toBe(410);
    expect(over.json().details.applicationError.code).toBe('DOWNLOAD_LIMIT_REACHED');
    const page = await download(links[0], { accept: 'text/html,application/xhtml+xml' });
    expect(page.statusCode).toBe(410);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('This download link no longer works');
  });

  it('never counts past the limit when downloads race', async () => {
    const { links } = await buy('race@example.com');
    const answers = await Promise.all(Array.from({ length: 8 }, () => download(links[0])));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.statusCode === 410)).toHaveLength(5);
  });

  it('refuses a changed link (403) and an expired one (410); the account page issues fresh links', async () => {
    const member = await memberToken(t.app, site);
    const { links } = await buy('grace@example.com', member.token);
    for (const at of [links[0].lastIndexOf('/') + 5, links[0].length - 1, links[0].length - 10]) {
      const tampered = links[0].slice(0, at) + (links[0][at] === 'A' ? 'B' : 'A') + links[0].slice(at + 1);
      const refused = await download(tampered);
      expect(refused.statusCode, tampered).toBe(403);
      expect(refused.json().details.applicationError.code).toBe('DOWNLOAD_LINK_INVALID');
    }
    now = new Date(now.getTime() + 8 * 24 * 3600 * 1000);
    try {
      const expired = await download(links[0]);
      expect(expired.statusCode).toBe(410);
      expect(expired.json().details.applicationError.code).toBe('DOWNLOAD_LINK_EXPIRED');
      const fresh = await memberToken(t.app, site, member.memberId);
      const mine = await t.app.inject({ method: 'GET', url: '/bodega/v1/downloads/my', headers: { authorization: fresh.token } });
      expect(mine.statusCode, mine.body).toBe(200);
      const [item] = mine.json().downloads;
      expect(item).toMatchObject({ productName: 'Field Guide', fileName: 'Field guide — 2026.pdf', downloadsUsed: 0, maxDownloads: 3 });
      expect(new Date(item.expirationDate).getTime()).toBe(now.getTime() + 7 * 24 * 3600 * 1000);
      const again = await download(new URL(item.url).pathname);
      expect(again.statusCode).toBe(200);
      // Another member sees none of it.
      const other = await memberToken(t.app, site);
      const theirs = await t.app.inject({ method: 'GET', url: '/bodega/v1/downloads/my', headers: { authorization: other.token } });
      expect(theirs.json().downloads).toEqual([]);
    } finally {
      now = new Date(now.getTime() - 8 * 24 * 3600 * 1000);
    }
  });

  it('refuses the links of a refunded order and of a canceled one', async () => {
    const refundedOrder = await buy('refund@example.com');
    const payments = await t.app.inject({ method: 'GET', url: `/ecom/v1/payments-collector/orders/${refundedOrder.orderId}/refundability`, headers: apiKey(site) });
    const paymentId = payments.json().refundabilities[0].paymentId as string;
    const refunded = await t.app.inject({ method: 'POST', url: `/ecom/v1/payments-collector/orders/${refundedOrder.orderId}/trigger-refund`, headers: apiKey(site), payload: { payments: [{ paymentId }] } });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const afterRefund = await download(refundedOrder.links[0]);
    expect(afterRefund.statusCode).toBe(403);
    expect(afterRefund.json().details.applicationError.code).toBe('ORDER_REFUNDED');

    const canceledOrder = await buy('cancel@example.com');
    const canceled = await t.app.inject({ method: 'POST', url: `/ecom/v1/orders/${canceledOrder.orderId}/cancel`, headers: apiKey(site), payload: {} });
    expect(canceled.statusCode, canceled.body).toBe(200);
    const afterCancel = await download(canceledOrder.links[0], { accept: 'text/html' });
    expect(afterCancel.statusCode).toBe(403);
    expect(afterCancel.body).toContain('was canceled');
  });

  it('re-sends a guest the links for the order number and its e-mail, answering the same otherwise', async () => {
    const { orderId } = await buy('guest@example.com');
    const order = await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: apiKey(site) });
    const orderNumber = Number(order.json().order.number);
    const visitor = await t.visitorToken(site);
    const ask = (payload: unknown) => t.app.inject({ method: 'POST', url: '/bodega/v1/downloads/resend', headers: { authorization: visitor }, payload: payload as Record<string, unknown> });
    for (const payload of [{ orderNumber, email: 'someone@example.com' }, { orderNumber: 99999999, email: 'guest@example.com' }, { orderNumber, email: 'Guest@Example.com' }]) {
      const res = await ask(payload);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({});
    }
    expect(await mailsTo('someone@example.com')).toEqual([]);
    const mails = await mailsTo('guest@example.com');
    expect(mails).toHaveLength(2);
    expect((await download(linksIn(mails[1].text_body)[0])).statusCode).toBe(200);
  });

  it('removes a file (audited): its links answer 410', async () => {
    const { links } = await buy('late@example.com');
    const listed = await t.app.inject({ method: 'GET', url: `/bodega/v1/digital-products/${guide.id}`, headers: apiKey(site) });
    const fileId = listed.json().files[0].id as string;
    const removed = await t.app.inject({ method: 'DELETE', url: `/bodega/v1/digital-products/${guide.id}/files/${fileId}`, headers: apiKey(site) });
    expect(removed.statusCode, removed.body).toBe(200);
    const gone = await download(links[0]);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().details.applicationError.code).toBe('FILE_GONE');
    expect((await t.app.inject({ method: 'DELETE', url: `/bodega/v1/digital-products/${guide.id}/files/${fileId}`, headers: apiKey(site) })).statusCode).toBe(404);
  });
});
