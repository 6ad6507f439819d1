import { escapeHtml, type Mail } from '../../platform/mail.js';
import { formattedAmount } from '../../platform/money.js';
import type { Order } from '../orders/service.js';

/** The store's order e-mail types (spec §9). */
// DOWNLOAD_LINKS goes out when the order is paid, with signed links (services/digital).
export type OrderMailType = 'ORDER_PLACED' | 'ORDER_SHIPPED' | 'ORDER_READY_FOR_PICKUP' | 'PAYMENT_PROBLEM';

export interface OrderMailContext {
  storeName: string;
  publicUrl: string;
  order: Order;
  /** The site owners' addresses, for the copy of ORDER_PLACED and the payment problems they must know of. */
  ownerEmails: readonly string[];
}

/** Where the buyer finds the order in the account area. */
export function orderLink(publicUrl: string, orderId: string): string {
  return `${publicUrl}/account/orders/${encodeURIComponent(orderId)}`;
}

interface Body {
  subject: string;
  lines: string[];
}

function render(ctx: OrderMailContext, kind: OrderMailType, to: string, body: Body): Omit<Mail, 'siteId'> {
  const link = orderLink(ctx.publicUrl, ctx.order.id);
  const text = [...body.lines, '', `See your order: ${link}`, '', ctx.storeName].join('\n');
  const html = [
    `<h1>${escapeHtml(ctx.storeName)}</h1>`,
    ...body.lines.map((line) => (line === '' ? '' : `<p>${escapeHtml(line)}</p>`)),
    `<p><a href="${escapeHtml(link)}">See your order</a></p>`,
  ].join('\n');
  return { kind: `orders.${kind}`, to, subject: body.subject, text, html };
}

function itemLines(order: Order): string[] {
  return order.lines.map((line) => `${line.quantity} × ${line.name}: ${formattedAmount(line.totalAfterTax, order.currency)}`);
}

/** The mails an order event sends, in the order they go out (site id filled in by the caller). */
export function orderMails(eventType: string, ctx: OrderMailContext): Omit<Mail, 'siteId'>[] {
  const { order } = ctx;
  const number = `#${order.number}`;
  const out: Omit<Mail, 'siteId'>[] = [];
  const add = (kind: OrderMailType, to: string | null, body: Body) => {
    if (!to) return;
    out.push(render(ctx, kind, to, body));
  };
  if (eventType === 'order.created') {
    const summary = [...itemLines(order), `Total: ${formattedAmount(order.totals.total, order.currency)}`];
    add('ORDER_PLACED', order.email, { subject: `${ctx.storeName}: order ${number} placed`, lines: [`Thank you for your order ${number}.`, '', ...summary] });
    for (const owner of ctx.ownerEmails) {
      add('ORDER_PLACED', owner, { subject: `${ctx.storeName}: new order ${number}`, lines: [`A new order ${number} was placed by ${order.email ?? 'a buyer'}.`, '', ...summary] });
    }
  }
  if (eventType === 'order.payment_failed' || eventType === 'order.payment_disputed') {
    // The merchant hears of a payment that failed after the order was placed, or that the buyer disputed.
    const note = [...order.activities].reverse().find((a) => a.type === 'MERCHANT_COMMENT')?.message;
    const subject = eventType === 'order.payment_failed' ? `${ctx.storeName}: the payment for order ${number} failed` : `${ctx.storeName}: the payment for order ${number} is disputed`;
    const advice = eventType === 'order.payment_failed' ? 'Do not ship this order until it is paid.' : 'Answer the dispute at your payment provider before its deadline.';
    for (const owner of ctx.ownerEmails) add('PAYMENT_PROBLEM', owner, { subject, lines: [...(note ? [note] : []), advice, '', `Total: ${formattedAmount(order.totals.total, order.currency)}`] });
  }
  if (eventType === 'order.refunded_at_provider') {
    // Money given back in the provider's own dashboard: Bodega recorded it; the merchant hears of it.
    const made = [...order.refunds].reverse().find((r) => r.madeAt === 'PROVIDER');
    const amount = made ? formattedAmount(made.amount, order.currency) : 'money';
    for (const owner of ctx.ownerEmails) {
      add('PAYMENT_PROBLEM', owner, {
        subject: `${ctx.storeName}: ${amount} of order ${number} was refunded at the payment provider`,
        lines: [`A refund of ${amount} for order ${number} was made in the payment provider's dashboard, not in Bodega.`, 'It is recorded on the order and counted in the dashboard.', '', `Total: ${formattedAmount(order.totals.total, order.currency)}`],
      });
    }
  }
  if (eventType === 'order.fulfillment_created') {
    const fulfillment = order.fulfillments[order.fulfillments.length - 1];
    if (order.shipping?.kind === 'PICKUP') {
      add('ORDER_READY_FOR_PICKUP', order.email, {
        subject: `${ctx.storeName}: order ${number} is ready for pickup`,
        lines: [`Your order ${number} is ready for pickup.`, ...(order.shipping.instructions ? [order.shipping.instructions] : [])],
      });
    } else if (fulfillment) {
      const tracking = fulfillment.trackingInfo;
      add('ORDER_SHIPPED', order.email, {
        subject: `${ctx.storeName}: order ${number} has shipped`,
        lines: [
          `Your order ${number} is on its way.`,
          ...(tracking?.shippingProvider ? [`Carrier: ${tracking.shippingProvider}`] : []),
          ...(tracking?.trackingNumber ? [`Tracking number: ${tracking.trackingNumber}`] : []),
          ...(tracking?.trackingLink ? [`Track it: ${tracking.trackingLink}`] : []),
        ],
      });
    }
  }
  return out;
}
