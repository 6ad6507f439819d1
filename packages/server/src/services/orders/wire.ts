// Order → eCommerce wire. Order prices are {amount, formattedAmount} decimal strings; the number is a string.
import { absoluteUrl } from '../catalog/service.js';
import { formatAmount, formattedAmount } from '../../platform/money.js';
import { wireBuyer, wireItemType } from '../commerce/wire.js';
import { SHIPPING_CARRIER_ID, TIPS_APP_ID } from '../commerce/pricing/wire.js';
import type { Order, OrderActivity, OrderFee, OrderFulfillment, OrderLine, OrderPayment, OrderTip } from './model.js';
import { isOffline, statusOf } from './payment-model.js';

export function price(minor: bigint, currency: string) {
  return { amount: formatAmount(minor, currency), formattedAmount: formattedAmount(minor, currency) };
}

function descriptionLines(line: OrderLine) {
  return line.descriptionLines.map((d) =>
    d.color !== undefined
      ? { name: { original: d.name, translated: d.name }, colorInfo: { original: d.value, translated: d.value, code: d.color }, lineType: 'COLOR' as const }
      : { name: { original: d.name, translated: d.name }, plainText: { original: d.value, translated: d.value }, lineType: 'PLAIN_TEXT' as const },
  );
}

function toWireLine(line: OrderLine, order: Order, publicUrl: string) {
  const money = (minor: bigint) => price(minor, order.currency);
  return {
    id: line.id,
    productName: { original: line.name, translated: line.name },
    ...(line.catalogReference ? { catalogReference: line.catalogReference } : {}),
    quantity: line.quantity,
    totalDiscount: money(line.discount),
    descriptionLines: descriptionLines(line),
    ...(line.image ? { image: { url: absoluteUrl(line.image.url, publicUrl), width: line.image.width, height: line.image.height, ...(line.image.altText ? { altText: line.image.altText } : {}) } } : {}),
    physicalProperties: { ...(line.weight !== null ? { weight: Number(line.weight) } : {}), ...(line.sku ? { sku: line.sku } : {}), shippable: line.itemType === 'PHYSICAL' },
    itemType: wireItemType(line.itemType),
    ...(line.refundedQuantity ? { refundQuantity: line.refundedQuantity } : {}),
    ...(line.restockedQuantity ? { restockQuantity: line.restockedQuantity } : {}),
    price: money(line.price),
    priceBeforeDiscounts: money(line.price),
    lineItemPrice: money(line.lineSubtotal),
    totalPriceBeforeTax: money(line.totalBeforeTax),
    totalPriceAfterTax: money(line.totalAfterTax),
    paymentOption: order.paymentOption,
    taxDetails: { taxRate: line.taxRate, totalTax: money(line.tax) },
    ...(line.productId ? { rootCatalogItemId: line.productId } : {}),
    ...(line.pagePath ? { url: { relativePath: line.pagePath, url: /^https?:/.test(line.pagePath) ? line.pagePath : `${publicUrl.replace(/\/$/, '')}${line.pagePath}` } } : {}),
    locations: [],
    priceUndetermined: false,
    fixedQuantity: false,
  };
}

function toWireActivity(a: OrderActivity, currency: string) {
  return {
    id: a.id,
    type: a.type,
    createdDate: a.createdDate.toISOString(),
    ...(a.type === 'MERCHANT_COMMENT' && a.message ? { merchantComment: { message: a.message } } : {}),
    ...(a.type === 'ORDER_REFUNDED' ? { orderRefunded: { manual: true, amount: price(a.amount ?? 0n, currency), reason: a.reason ?? '' } } : {}),
    ...(a.custom ? { customActivity: { type: a.custom.type, ...(a.custom.appId ? { appId: a.custom.appId } : {}), additionalData: a.custom.additionalData } } : {}),
    ...(a.changes ? {
      draftOrderChangesApplied: {
        draftOrderId: a.changes.draftOrderId,
        changes: a.changes.lines.map((l) => ({ lineItemId: l.lineItemId, name: l.name, quantityBefore: l.before, quantityAfter: l.after })),
        shippingChanged: a.changes.shippingChanged,
        totalBefore: price(a.changes.totalBefore, currency),
        totalAfter: price(a.changes.totalAfter, currency),
      },
    } : {}),
  };
}

/** An additional fee as the order answers it (its price before and after its tax). */
export function toWireFee(f: OrderFee, currency: string, includesTax: boolean, taxRate = '0') {
  return {
    code: f.code,
    name: f.name,
    price: price(f.price, currency),
    taxDetails: { taxRate: f.tax > 0n ? taxRate : '0', totalTax: price(f.tax, currency) },
    priceBeforeTax: price(includesTax ? f.price - f.tax : f.price, currency),
    priceAfterTax: price(includesTax ? f.price : f.price + f.tax, currency),
    id: f.code,
    lineItemIds: [],
  };
}

/** A tip as the order answers it: the Wix Tips app's untaxed fee, its code the tip's id. */
export function toWireTipFee(t: OrderTip, currency: string) {
  return {
    code: t.id,
    name: 'Tip',
    price: price(t.amount, currency),
    taxDetails: { taxRate: '0', totalTax: price(0n, currency) },
    priceBeforeTax: price(t.amount, currency),
    priceAfterTax: price(t.amount, currency),
    id: t.id,
    lineItemIds: [],
    providerAppId: TIPS_APP_ID,
  };
}

export function toWireOrder(order: Order, publicUrl: string) {
  const money = (minor: bigint) => price(minor, order.currency);
  const s = order.shipping;
  const includesTax = order.tax.pricesIncludeTax;
  const createdBy = order.createdBy.kind === 'visitor' ? { visitorId: order.createdBy.id } : order.createdBy.kind === 'member' ? { memberId: order.createdBy.id } : { appId: order.createdBy.id };
  return {
    id: order.id,
    number: String(order.number),
    createdDate: order.createdDate.toISOString(),
    updatedDate: order.updatedDate.toISOString(),
    lineItems: order.lines.map((line) => toWireLine(line, order, publicUrl)),
    // A member's contact is the member (members answer contactId = id), so apps can match either.
    buyerInfo: { ...wireBuyer(order.buyer, order.email), ...(order.buyer.kind === 'member' ? { contactId: order.buyer.id } : {}) },
    paymentStatus: order.paymentStatus,
    fulfillmentStatus: order.fulfillmentStatus,
    buyerLanguage: 'en',
    weightUnit: order.weightUnit,
    currency: order.currency,
    taxIncludedInPrices: includesTax,
    siteLanguage: 'en',
    priceSummary: {
      subtotal: money(order.totals.subtotal),
      shipping: money(order.totals.shipping),
      tax: money(order.totals.tax),
      discount: money(order.totals.discount),
      total: money(order.totals.total),
      totalAdditionalFees: money((order.additionalFees ?? []).reduce((sum, f) => sum + (includesTax ? f.price - f.tax : f.price), order.tip?.amount ?? 0n)),
    },
    ...(order.billingInfo ? { billingInfo: order.billingInfo } : {}),
    ...(s
      ? {
          shippingInfo: {
            carrierId: SHIPPING_CARRIER_ID,
            code: s.code,
            title: s.title,
            logistics: {
              ...(s.kind === 'DELIVERY' && s.destination ? { shippingDestination: s.destination } : {}),
              ...(s.kind === 'PICKUP' ? { pickupDetails: { ...(s.pickupAddress ? { address: s.pickupAddress } : {}), pickupMethod: 'STORE_PICKUP' as const } } : {}),
              ...(s.deliveryTime !== undefined ? { deliveryTime: s.deliveryTime } : {}),
              ...(s.instructions !== undefined ? { instructions: s.instructions } : {}),
              ...(s.deliveryTimeSlot ? { deliveryTimeSlot: s.deliveryTimeSlot } : {}),
            },
            cost: {
              price: money(s.cost),
              totalPriceBeforeTax: money(includesTax ? s.cost - s.tax : s.cost),
              totalPriceAfterTax: money(includesTax ? s.cost : s.cost + s.tax),
              taxDetails: { taxRate: order.tax.rate ?? '0', totalTax: money(s.tax) },
              discount: money(0n),
            },
            ...(s.region ? { region: { name: s.region.name } } : {}),
          },
        }
      : {}),
    ...(s?.kind === 'DELIVERY' && s.destination ? { recipientInfo: s.destination } : {}),
    ...(order.buyerNote ? { buyerNote: order.buyerNote } : {}),
    status: order.status,
    archived: order.archived,
    taxSummary: { totalTax: money(order.tax.total) },
    taxInfo: { totalTax: money(order.tax.total), taxBreakdown: [] },
    appliedDiscounts: order.appliedDiscounts.map((d) => ({
      discountType: d.discountType,
      lineItemIds: d.lineItemIds,
      ...(d.source === 'COUPON'
        ? { coupon: { ...(d.couponId ? { id: d.couponId } : {}), code: d.code ?? '', name: d.name ?? d.code ?? '', amount: money(d.amount) } }
        : { merchantDiscount: { amount: money(d.amount) } }),
    })),
    activities: order.activities.map((a) => toWireActivity(a, order.currency)),
    attributionSource: 'UNSPECIFIED',
    createdBy,
    channelInfo: {
      type: order.channelType,
      ...(order.imported?.externalOrderId ? { externalOrderId: order.imported.externalOrderId } : {}),
      ...(order.imported?.externalOrderUrl ? { externalOrderUrl: order.imported.externalOrderUrl } : {}),
    },
    seenByAHuman: false,
    ...(order.checkoutId ? { checkoutId: order.checkoutId } : {}),
    customFields: [],
    balanceSummary: {
      balance: money(order.status === 'CANCELED' ? 0n : order.totals.total - order.paid > 0n ? order.totals.total - order.paid : 0n),
      paid: money(order.paid),
      refunded: money(order.refunded),
      authorized: money(0n),
      pending: money(0n),
    },
    additionalFees: [
      ...(order.additionalFees ?? []).map((f) => toWireFee(f, order.currency, includesTax, order.tax.rate)),
      ...(order.tip ? [toWireTipFee(order.tip, order.currency)] : []),
    ],
    ...(order.purchasedDate ? { purchasedDate: order.purchasedDate.toISOString() } : {}),
  };
}

export function toWirePayment(p: OrderPayment, currency: string) {
  const auth = p.authorization;
  return {
    id: p.id,
    createdDate: p.createdDate.toISOString(),
    updatedDate: p.createdDate.toISOString(),
    amount: price(p.amount, currency),
    refundDisabled: Boolean(p.chargebacks?.length),
    status: statusOf(p),
    regularPaymentDetails: {
      ...(isOffline(p) ? { offlinePayment: true } : { offlinePayment: false, providerTransactionId: p.transactionId, gatewayTransactionId: p.transactionId, ...(p.provider ? { paymentProvider: p.provider } : {}) }),
      status: statusOf(p),
      ...(p.methodName ? { paymentMethod: p.methodName } : {}),
      ...(auth && {
        authorizationDetails: {
          delayedCapture: auth.delayedCapture,
          authorizedDate: auth.authorizedDate.toISOString(),
          ...(auth.amount !== undefined && { authorizedAmount: price(auth.amount, currency) }),
          captures: auth.captures.map((c) => ({
            id: c.id, status: c.status, amount: price(c.amount, currency), createdDate: c.createdDate.toISOString(),
            ...(c.failure ? { failureDetails: { failureCode: 'PROVIDER_FAILURE', failureReason: c.failure } } : {}),
          })),
          ...(auth.void ? { void: { status: auth.void.status, voidedDate: auth.void.voidedDate.toISOString(), reason: auth.void.reason } } : {}),
        },
      }),
      ...(p.chargebacks?.length ? { chargebacks: p.chargebacks.map((c) => ({ id: c.id, createdDate: c.createdDate.toISOString(), updatedDate: c.createdDate.toISOString(), amount: price(c.amount, currency), reversalAmount: price(0n, currency), status: 'APPROVED' })) } : {}),
    },
  };
}

/** An order's payments and refunds as the order-transactions calls answer them. */
export function toWireTransactions(order: Order) {
  return {
    orderId: order.id,
    payments: order.payments.map((p) => toWirePayment(p, order.currency)),
    refunds: order.refunds.map((r) => ({
      id: r.id,
      createdDate: r.createdDate.toISOString(),
      details: { lineItems: r.lineItems, shippingIncluded: r.shippingIncluded, ...(r.reason ? { reason: r.reason } : {}) },
      transactions: r.payments.map((p) => ({
        paymentId: p.paymentId,
        amount: price(p.amount, order.currency),
        refundStatus: p.status ?? 'SUCCEEDED',
        externalRefund: p.externalRefund ?? true,
        ...(p.providerRefundId ? { providerRefundId: p.providerRefundId, gatewayRefundId: p.providerRefundId } : {}),
      })),
      summary: { requestedRefund: price(r.amount, order.currency), pending: r.payments.some((p) => p.status === 'PENDING' || p.status === 'SCHEDULED' || p.status === 'STARTED') },
    })),
  };
}

export function toWireFulfillment(f: OrderFulfillment) {
  return {
    id: f.id,
    createdDate: f.createdDate.toISOString(),
    lineItems: f.lineItems.map((l) => ({ id: l.id, quantity: l.quantity })),
    ...(f.trackingInfo ? { trackingInfo: f.trackingInfo } : {}),
    completed: true,
  };
}

