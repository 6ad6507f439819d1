// Editing a placed order before it is fulfilled: the edit is a draft order of the order (a copy of
// its checkout with the same line ids), changed with the draft calls and re-priced by the same
// pricing kernel; committing it rewrites the order's lines and totals under the order's row lock,
// after checking the revision the draft was made from (no lost update), moves the stock the
// difference takes or gives back, writes a DRAFT_ORDER_CHANGES_APPLIED activity and an audit entry,
// and refunds what was paid beyond the new total through the existing refund path. A higher total
// leaves a balance due (PARTIALLY_PAID), collected like any other.
import { ApiError } from '../../platform/errors.js';
import { formatAmount } from '../../platform/money.js';
import { newId } from '../../platform/ids.js';
import type { RequestContext } from '../../platform/caller.js';
import type { SiteContext } from '../../platform/context.js';
import type { CatalogService } from '../catalog/service.js';
import type { CheckoutView } from '../checkout/service.js';
import { snapshotOrder, type Order, type PaymentStatus } from './model.js';
import type { OrdersService } from './service.js';
import { stockChanges } from './service.js';
import * as store from './draft-orders-store.js';

/** Why an order cannot be edited now, in words; undefined when it can. */
export function notEditable(order: Order): { code: string; description: string; wixReason: string } | undefined {
  if (order.status === 'CANCELED') return { code: 'ORDER_CANCELED', description: `Order ${order.number} is canceled and cannot be edited`, wixReason: 'ORDER_STATUS_IS_NOT_SUPPORTED' };
  if (order.fulfillmentStatus !== 'NOT_FULFILLED') return { code: 'ORDER_FULFILLED', description: `Order ${order.number} has been fulfilled (or partly) and cannot be edited`, wixReason: 'ORDER_STATUS_IS_NOT_SUPPORTED' };
  if (!order.checkoutId) return { code: 'ORDER_NOT_EDITABLE', description: `Order ${order.number} was not placed in this shop and cannot be edited`, wixReason: 'UNSUPPORTED_CHANNEL_TYPE' };
  return undefined;
}

export function revisionOf(order: Order): string {
  return order.updatedDate.toISOString();
}

function paymentStatusAfter(order: Order, total: bigint): PaymentStatus {
  if (!['NOT_PAID', 'PAID', 'PARTIALLY_PAID'].includes(order.paymentStatus)) return order.paymentStatus;
  const kept = order.paid - order.refunded;
  if (total === 0n) return 'PAID';
  if (order.paid === 0n) return 'NOT_PAID';
  return kept >= total ? 'PAID' : 'PARTIALLY_PAID';
}

export class OrderEdits {
  constructor(private readonly orders: OrdersService, private readonly catalog: CatalogService) {}

  /** Applies the priced edit to the order inside the caller's transaction; answers the order. */
  async apply(tx: RequestContext, draftId: string, edits: { orderId: string; revision: string }, view: CheckoutView): Promise<Order> {
    if (view.checkout.lines.length === 0) throw new ApiError(400, 'ORDER_EMPTY', 'An edit cannot remove every line; cancel the order instead');
    const blocking = view.priced.violations.filter((v) => v.severity === 'ERROR');
    if (blocking.length) {
      const stock = blocking[0].code === 'LINE_ITEM_OUT_OF_STOCK' || blocking[0].code === 'LINE_ITEM_PARTIALLY_AVAILABLE';
      throw new ApiError(stock ? 409 : 400, stock ? 'INSUFFICIENT_INVENTORY' : blocking[0].code, blocking[0].description, { violations: blocking.map((v) => ({ code: v.code, description: v.description })) });
    }
    let excess = 0n;
    const edited = await this.orders.mutate(tx, edits.orderId, async (current, inner) => {
      if (revisionOf(current) !== edits.revision) {
        throw new ApiError(409, 'ORDER_CHANGED', `Order ${current.number} changed since this edit was started; start the edit again`, { orderId: current.id, revision: revisionOf(current) });
      }
      const refused = notEditable(current);
      if (refused) throw new ApiError(400, refused.code, refused.description, { orderId: current.id });
      const at = inner.now();
      const snap = snapshotOrder({
        id: current.id, number: current.number, checkoutId: current.checkoutId, buyer: current.buyer, createdBy: current.createdBy, email: current.email,
        currency: current.currency, channelType: current.channelType, weightUnit: current.weightUnit, lines: view.lines, priced: view.priced,
        billingInfo: current.billingInfo, shippingDestination: view.checkout.shippingDestination, deliveryTimeSlot: view.checkout.deliveryTimeSlot,
        buyerNote: current.buyerNote, paymentOption: current.paymentOption, at, newId,
      });
      await this.moveStock(inner, current, snap, at);
      const before = new Map(current.lines.map((l) => [l.id, l]));
      const after = new Map(snap.lines.map((l) => [l.id, l]));
      const changes = [...new Set([...before.keys(), ...after.keys()])].flatMap((id) => {
        const was = before.get(id)?.quantity ?? 0;
        const now = after.get(id)?.quantity ?? 0;
        return was === now ? [] : [{ lineItemId: id, name: (after.get(id) ?? before.get(id))?.name ?? '', before: was, after: now }];
      });
      const shippingChanged = (current.shipping?.code ?? null) !== (snap.shipping?.code ?? null) || JSON.stringify(current.shipping?.destination ?? null) !== JSON.stringify(snap.shipping?.destination ?? null);
      excess = current.paid - current.refunded - snap.totals.total;
      const next: Order = {
        ...current,
        lines: snap.lines,
        totals: snap.totals,
        appliedDiscounts: snap.appliedDiscounts,
        shipping: snap.shipping,
        tax: snap.tax,
        // The tip is priced again on the edited goods (a percentage follows them); it keeps its id.
        tip: snap.tip && { ...snap.tip, id: current.tip?.id ?? snap.tip.id },
        paymentStatus: paymentStatusAfter(current, snap.totals.total),
        activities: [...current.activities, {
          id: newId(), type: 'DRAFT_ORDER_CHANGES_APPLIED', createdDate: at,
          changes: { draftOrderId: draftId, lines: changes, shippingChanged, totalBefore: current.totals.total, totalAfter: snap.totals.total },
        }],
        updatedDate: at,
      };
      await store.setOrderTotal(inner, current.id, next.totals.total);
      return { order: next, events: ['order.updated'] };
    }, {
      action: 'order.edited',
      details: (o) => ({ draftOrderId: draftId, total: formatAmount(o.totals.total, o.currency) }),
    });
    if (excess <= 0n || edited.paid === 0n) return edited;
    return this.refundExcess(tx, edited, excess);
  }

  /** Stock the edit takes (more units) or gives back (fewer), when the order holds its stock. */
  private async moveStock(tx: SiteContext, current: Order, next: Order, at: Date): Promise<void> {
    if (current.stockState !== 'DECREMENTED') return;
    const key = (c: { productId: string; variantId: string }) => `${c.productId}\u0000${c.variantId}`;
    const delta = new Map<string, { productId: string; variantId: string; quantity: number }>();
    for (const [sign, order] of [[-1, current], [1, next]] as const) {
      for (const c of stockChanges(order)) {
        const entry = delta.get(key(c)) ?? { ...c, quantity: 0 };
        entry.quantity += sign * c.quantity;
        delta.set(key(c), entry);
      }
    }
    const more = [...delta.values()].filter((c) => c.quantity > 0);
    const fewer = [...delta.values()].filter((c) => c.quantity < 0).map((c) => ({ ...c, quantity: -c.quantity }));
    if (more.length) await this.catalog.sellStock(tx, more, at);
    if (fewer.length) await this.catalog.restock(tx, fewer, at);
  }

  /** Gives back what was paid beyond the new total, payment by payment, through the refund path. */
  private async refundExcess(tx: RequestContext, order: Order, excess: bigint): Promise<Order> {
    let left = excess;
    const payments: { paymentId: string; amount: bigint }[] = [];
    for (const p of order.payments) {
      if (left === 0n || (p.status ?? 'APPROVED') !== 'APPROVED') continue;
      const amount = p.amount - p.refunded < left ? p.amount - p.refunded : left;
      if (amount <= 0n) continue;
      payments.push({ paymentId: p.id, amount });
      left -= amount;
    }
    if (!payments.length) return order;
    const { order: refunded } = await this.orders.payments.refund(tx, order.id, { payments, lineItems: [], shippingIncluded: false, reason: 'Order edited' }, 'NO_ITEMS');
    return refunded;
  }
}
