// Payment requests (@wix/ecom orderPaymentRequests): the balance due of an order — a draft order
// committed for a customer, an edit that raised the total — asked of the customer through a link.
// The link opens the shop's payment step for that order: it names the request, its expiry and the
// site, signed with the server key (a changed character, another site or a past expiry is refused).
// Paying goes through the checkout's own payment path (the order's checkout, the site's provider,
// the attempt's idempotency key), so a link clicked twice or paid in two tabs charges once; the
// request turns PAID once (a conditional update) when the order owes nothing more.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import type { RequestContext } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recordAudit } from '../../platform/audit.js';
import { formattedAmount } from '../../platform/money.js';
import { escapeHtml, type Mail } from '../../platform/mail.js';
import type { Keyring, SecretKey } from '../../platform/secrets.js';
import type { CheckoutService } from '../checkout/service.js';
import type { Order } from './model.js';
import type { OrdersService } from './service.js';
import * as store from './payment-requests-store.js';
import type { PaymentRequestRow } from './payment-requests-store.js';

export type RequestStatus = 'UNPAID' | 'PAID' | 'EXPIRED' | 'VOIDED';
export type { PaymentRequestRow } from './payment-requests-store.js';

/** A request as read now: an unpaid one past its expiry is EXPIRED. */
export interface PaymentRequest extends Omit<PaymentRequestRow, 'status'> {
  status: RequestStatus;
}

/** How long a link lasts when the request itself does not expire (a new one can be asked for at any time). */
export const LINK_DAYS = 30;
export const MAX_REQUEST_PAGE = 100;

export interface PaymentRequestsDeps {
  orders: OrdersService;
  checkout: Pick<CheckoutService, 'payOrderBalance'>;
  keyring: Keyring;
  /** The site's page base (its first verified domain, else PUBLIC_URL). */
  pageBase: (ctx: SiteContext) => Promise<string>;
  shopName: (ctx: SiteContext) => Promise<string>;
  /** Records a mail in the caller's transaction (sent after the commit). */
  enqueue: (tx: SiteContext, mail: Mail) => Promise<void>;
}

export interface CreateInput {
  orderId: string;
  amount?: bigint;
  title?: string;
  description?: string | null;
  expiresAt?: Date | null;
  source?: { appId?: string | null; externalId?: string | null };
}

const OWING = new Set(['NOT_PAID', 'PARTIALLY_PAID', 'DECLINED']);

/** What is left to pay on an order (as checkout's balance reads it). */
export function amountOwed(order: Order): bigint {
  const due = order.totals.total - order.paid;
  return OWING.has(order.paymentStatus) && due > 0n ? due : 0n;
}

function statusOf(row: PaymentRequestRow, now: Date): RequestStatus {
  return row.status === 'UNPAID' && row.expiresAt && row.expiresAt <= now ? 'EXPIRED' : row.status;
}

function read(row: PaymentRequestRow, now: Date): PaymentRequest {
  return { ...row, status: statusOf(row, now) };
}

function notFound(id: string): ApiError {
  return ApiError.notFound('ORDER_PAYMENT_REQUEST_NOT_FOUND', `Payment request ${id} was not found`, { orderPaymentRequestId: id });
}

function linkRefused(): ApiError {
  return ApiError.notFound('PAYMENT_LINK_NOT_FOUND', 'This payment link is not valid for this shop. Ask the shop for a new link.');
}

/** Why a request cannot be paid now, in the customer's words; undefined when it can. */
function unpayable(request: PaymentRequest): ApiError | undefined {
  const data = { orderPaymentRequestId: request.id, status: request.status };
  if (request.status === 'PAID') return new ApiError(409, 'ORDER_PAYMENT_REQUEST_ALREADY_PAID', `Order #${request.orderNumber} is already paid. Nothing more is charged.`, data);
  if (request.status === 'VOIDED') return new ApiError(410, 'ORDER_PAYMENT_REQUEST_VOIDED', `The shop withdrew this payment request for order #${request.orderNumber}. Ask the shop how to pay.`, data);
  if (request.status === 'EXPIRED') return new ApiError(410, 'ORDER_PAYMENT_REQUEST_EXPIRED', `This payment request for order #${request.orderNumber} has expired. Ask the shop for a new link.`, data);
  return undefined;
}

/** The orders service reads any order of the site for the link's payer (the signature vouches for them). */
function asShop(ctx: SiteContext): RequestContext {
  return { ...ctx, caller: { kind: 'APP', siteId: ctx.siteId, subjectId: 'payment-link' }, requestId: 'payment-link' };
}

// The link's signature: HMAC-SHA256 under a key derived from the server key for this one use.
function linkSignature(key: SecretKey, siteId: string, id: string, expires: string): Buffer {
  const derived = createHmac('sha256', key.key).update('bodega.order-payment-links.v1').digest();
  return createHmac('sha256', derived).update(`${siteId}\n${id}\n${expires}`).digest();
}

export class PaymentRequestsService {
  constructor(private readonly deps: PaymentRequestsDeps) {}

  /** The link of a request: `<page base>/pay/<id>.<expiry>.<signature>`. */
  async url(ctx: SiteContext, request: Pick<PaymentRequestRow, 'id' | 'expiresAt'>): Promise<string> {
    const until = request.expiresAt ?? new Date(ctx.now().getTime() + LINK_DAYS * 86_400_000);
    const expires = String(Math.floor(until.getTime() / 1000));
    const sig = linkSignature(this.deps.keyring.current, ctx.siteId, request.id, expires).toString('base64url');
    return `${(await this.deps.pageBase(ctx)).replace(/\/$/, '')}/pay/${request.id}.${expires}.${sig}`;
  }

  /** The request a link names, when this server signed it for this site and it has not run out. */
  private async fromLink(ctx: SiteContext, token: string): Promise<PaymentRequest> {
    const [id, expires, sig, ...rest] = token.split('.');
    if (!id || !expires || !sig || rest.length || !/^\d{1,12}$/.test(expires) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) throw linkRefused();
    const given = Buffer.from(sig, 'base64url');
    if (given.toString('base64url') !== sig) throw linkRefused();
    const ours = [this.deps.keyring.current, ...this.deps.keyring.previous].some((key) => timingSafeEqual(linkSignature(key, ctx.siteId, id, expires), given));
    if (!ours) throw linkRefused();
    const row = await store.findRequest(ctx, id);
    if (!row) throw linkRefused();
    const request = read(row, ctx.now());
    if (Number(expires) * 1000 <= ctx.now().getTime() && request.status === 'UNPAID') {
      throw new ApiError(410, 'PAYMENT_LINK_EXPIRED', `This payment link for order #${row.orderNumber} has expired. Ask the shop for a new link.`, { orderPaymentRequestId: id });
    }
    return request;
  }

  async create(ctx: RequestContext, input: CreateInput): Promise<{ request: PaymentRequest; url: string }> {
    const order = await this.deps.orders.getOrder(ctx, input.orderId);
    if (order.status === 'CANCELED') throw new ApiError(400, 'ORDER_CANCELED', `Order #${order.number} is canceled; nothing is asked of the customer`, { orderId: order.id });
    if (!order.checkoutId) throw new ApiError(400, 'ORDER_NOT_PAYABLE_ONLINE', `Order #${order.number} was not placed in this shop and cannot be paid through a link`, { orderId: order.id });
    const due = amountOwed(order);
    if (due === 0n) throw new ApiError(400, 'ORDER_ALREADY_PAID', `Order #${order.number} has no balance due`, { orderId: order.id, paymentStatus: order.paymentStatus });
    if (input.amount !== undefined && input.amount !== due) {
      throw ApiError.validation([{ field: 'orderPaymentRequest.amount.amount', rule: 'FORMAT', description: `a payment request asks for the order's balance due, ${formattedAmount(due, order.currency)}`, data: {} }]);
    }
    const now = ctx.now();
    const row: PaymentRequestRow = {
      id: newId(), orderId: order.id, orderNumber: String(order.number), status: 'UNPAID', amount: due, currency: order.currency,
      title: input.title ?? `Order #${order.number}`, description: input.description ?? null, expiresAt: input.expiresAt ?? null,
      source: { appId: input.source?.appId ?? (ctx.caller.kind === 'APP' ? ctx.caller.subjectId : null), externalId: input.source?.externalId ?? null },
      createdDate: now, updatedDate: now, paidDate: null,
    };
    await withTransaction(ctx, async (tx) => {
      await store.insertRequest(tx, row);
      await recordAudit(tx, { action: 'order_payment_request.created', objectType: 'order_payment_request', objectId: row.id, after: { orderId: order.id, amount: formattedAmount(due, order.currency) } });
    });
    return { request: read(row, now), url: await this.url(ctx, row) };
  }

  async get(ctx: RequestContext, id: string): Promise<PaymentRequest> {
    const row = await store.findRequest(ctx, id);
    if (!row) throw notFound(id);
    return read(row, ctx.now());
  }

  async link(ctx: RequestContext, id: string): Promise<string> {
    return this.url(ctx, await this.get(ctx, id));
  }

  /** Newest first, a page at a time; the cursor is the last request's id. */
  async query(ctx: RequestContext, input: { orderId?: string; status?: RequestStatus; limit?: number; cursor?: string | null }): Promise<{ requests: PaymentRequest[]; nextCursor: string | null }> {
    const limit = Math.min(Math.max(input.limit ?? 50, 1), MAX_REQUEST_PAGE);
    let after: PaymentRequestRow | undefined;
    if (input.cursor) {
      after = await store.findRequest(ctx, input.cursor);
      if (!after) throw ApiError.validation([{ field: 'query.cursorPaging.cursor', rule: 'FORMAT', description: 'not a cursor of this list' }]);
    }
    const rows = await store.listRequests(ctx, { ...(input.orderId && { orderId: input.orderId }), ...(input.status && { status: input.status }) }, limit + 1, after);
    const page = rows.slice(0, limit).map((r) => read(r, ctx.now()));
    return { requests: page, nextCursor: rows.length > limit ? page[page.length - 1].id : null };
  }

  /** Withdraws an unpaid request: its link no longer pays. */
  async void(ctx: RequestContext, id: string): Promise<PaymentRequest> {
    return withTransaction(ctx, async (tx) => {
      const row = await store.findRequest(tx, id, true);
      if (!row) throw notFound(id);
      if (row.status === 'PAID') throw new ApiError(400, 'ORDER_PAYMENT_REQUEST_ALREADY_PAID', `Payment request ${id} is paid; refund the order instead`, { orderPaymentRequestId: id });
      if (row.status === 'VOIDED') return read(row, tx.now());
      await store.settle(tx, id, 'VOIDED', tx.now());
      await recordAudit(tx, { action: 'order_payment_request.voided', objectType: 'order_payment_request', objectId: id, after: { orderId: row.orderId } });
      return read({ ...row, status: 'VOIDED', updatedDate: tx.now() }, tx.now());
    });
  }

  /** Deletes a request that was never paid (a paid one stays, as the record of that payment). */
  async delete(ctx: RequestContext, id: string): Promise<void> {
    await withTransaction(ctx, async (tx) => {
      const row = await store.findRequest(tx, id, true);
      if (!row) throw notFound(id);
      if (row.status === 'PAID') throw new ApiError(400, 'ORDER_PAYMENT_REQUEST_ALREADY_PAID', `Payment request ${id} is paid and is kept as the record of that payment`, { orderPaymentRequestId: id });
      await store.deleteRequest(tx, id);
      await recordAudit(tx, { action: 'order_payment_request.deleted', objectType: 'order_payment_request', objectId: id, before: { orderId: row.orderId } });
    });
  }

  /** E-mails the link to the order's buyer (or `to`), through the stored mail outbox. */
  async send(ctx: RequestContext, id: string, to?: string): Promise<{ request: PaymentRequest; to: string }> {
    const request = await this.get(ctx, id);
    const refused = unpayable(request);
    if (refused) throw refused;
    const order = await this.deps.orders.getOrder(ctx, request.orderId);
    const address = to ?? order.email;
    if (!address) throw ApiError.validation([{ field: 'to', rule: 'REQUIRED_FIELD', description: `order #${order.number} has no e-mail address: give one` }]);
    const url = await this.url(ctx, request);
    const shop = await this.deps.shopName(ctx);
    await withTransaction(ctx, async (tx) => {
      await this.deps.enqueue(tx, paymentRequestMail(tx.siteId, { shop, to: address, request, url }));
      await recordAudit(tx, { action: 'order_payment_request.sent', objectType: 'order_payment_request', objectId: id, after: { to: address } });
    });
    return { request, to: address };
  }

  // The customer's side: the link's page and its payment ------------------------------------------

  /** What the link's page shows: the request and the order it asks payment for. */
  async linkView(ctx: SiteContext, token: string): Promise<{ request: PaymentRequest; order: Order }> {
    const request = await this.fromLink(ctx, token);
    return { request, order: await this.deps.orders.getOrder(asShop(ctx), request.orderId) };
  }

  /**
   * Pays the request through the site's provider, on the order's own checkout: the checkout's
   * lock and the attempt's idempotency key make concurrent payments charge once; the request is
   * PAID once the order owes nothing more.
   */
  async pay(ctx: RequestContext, token: string, paymentToken: string): Promise<{ request: PaymentRequest; order: Order }> {
    const request = await this.fromLink(ctx, token);
    const refused = unpayable(request);
    if (refused) throw refused;
    const order = await this.deps.orders.getOrder(asShop(ctx), request.orderId);
    const due = amountOwed(order);
    if (due === 0n) throw new ApiError(409, 'ORDER_ALREADY_PAID', `Order #${order.number} is already paid. Nothing more is charged.`, { orderId: order.id });
    if (due !== request.amount || order.status === 'CANCELED') {
      throw new ApiError(409, 'ORDER_CHANGED', `Order #${order.number} changed since this link was made. Ask the shop for a new link.`, { orderId: order.id });
    }
    // After a bank's own page (3-D Secure) the payer comes back to this link's page.
    const returnUrl = `${(await this.deps.pageBase(ctx)).replace(/\/$/, '')}/pay/${token}`;
    await this.deps.checkout.payOrderBalance(ctx, order.checkoutId ?? '', { token: paymentToken, returnUrl });
    return withTransaction(ctx, async (tx) => {
      const after = await this.deps.orders.getOrder(asShop(tx), order.id);
      if (amountOwed(after) === 0n) await store.settle(tx, request.id, 'PAID', tx.now());
      const row = await store.findRequest(tx, request.id);
      if (!row) throw notFound(request.id);
      return { request: read(row, tx.now()), order: after };
    });
  }
}

/** The mail that carries a payment link. */
export function paymentRequestMail(siteId: string, input: { shop: string; to: string; request: PaymentRequest; url: string }): Mail {
  const { shop, request, url } = input;
  const amount = formattedAmount(request.amount, request.currency);
  const intro = `${shop} asks you to pay ${amount} for order #${request.orderNumber}.`;
  const until = request.expiresAt ? `The link works until ${request.expiresAt.toISOString().slice(0, 10)}.` : `The link works for ${LINK_DAYS} days; ask the shop for a new one after that.`;
  const text = [intro, request.description ?? '', '', `Pay here: ${url}`, '', until, '', shop].filter((line, i, all) => line !== '' || all[i - 1] !== '').join('\n');
  const html = [
    `<h1>${escapeHtml(shop)}</h1>`,
    `<p>${escapeHtml(intro)}</p>`,
    ...(request.description ? [`<p>${escapeHtml(request.description)}</p>`] : []),
    `<p><a href="${escapeHtml(url)}">Pay ${escapeHtml(amount)}</a></p>`,
    `<p>${escapeHtml(until)}</p>`,
  ].join('\n');
  return { siteId, kind: 'orders.PAYMENT_REQUEST', to: input.to, subject: `${shop}: payment for order #${request.orderNumber}`, text, html };
}
