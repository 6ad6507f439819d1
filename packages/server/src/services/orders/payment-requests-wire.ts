// Payment requests → the wire: the orderPaymentRequest entity, and the order as the payment
// link's page shows it (lines and totals only).
import { formatAmount, formattedAmount } from '../../platform/money.js';
import type { Order } from './model.js';
import { amountOwed, type PaymentRequest } from './payment-requests.js';

const price = (minor: bigint, currency: string) => ({ amount: formatAmount(minor, currency), formattedAmount: formattedAmount(minor, currency) });

export function toWirePaymentRequest(r: PaymentRequest) {
  return {
    id: r.id,
    source: { ...(r.source.appId ? { appId: r.source.appId } : {}), ...(r.source.externalId ? { externalId: r.source.externalId } : {}) },
    status: r.status,
    orderId: r.orderId,
    orderNumber: r.orderNumber,
    amount: price(r.amount, r.currency),
    currency: r.currency,
    title: r.title,
    ...(r.description ? { description: r.description } : {}),
    ...(r.expiresAt ? { expirationDate: r.expiresAt.toISOString() } : {}),
    createdDate: r.createdDate.toISOString(),
    updatedDate: r.updatedDate.toISOString(),
  };
}

export function toWireLinkOrder(order: Order) {
  const c = order.currency;
  const { subtotal, discount, shipping, tax, total } = order.totals;
  return {
    id: order.id,
    number: String(order.number),
    paymentStatus: order.paymentStatus,
    lineItems: order.lines.map((l) => ({
      id: l.id,
      name: l.name,
      options: l.descriptionLines.map((d) => `${d.name}: ${d.value}`),
      quantity: l.quantity,
      price: price(l.price, c),
      total: price(l.lineSubtotal, c),
    })),
    priceSummary: { subtotal: price(subtotal, c), discount: price(discount, c), shipping: price(shipping, c), tax: price(tax, c), total: price(total, c) },
    paid: price(order.paid, c),
    balanceDue: price(amountOwed(order), c),
  };
}
