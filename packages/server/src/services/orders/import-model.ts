// Orders imported from another platform (issue 31): an order in the official importOrder shape is
// checked against the site and turned into a Bodega order, as history. Pure: no I/O, no clock.
// A refusal is an ApiError whose code is one of the spec's reasons (the @wix/ecom draft-orders
// package's NonDraftableReason list, which the spec gives as the order-import failures).
import { ApiError } from '../../platform/errors.js';
import { formatAmount, MoneyError, multiply, normalizeCurrency, parseAmount } from '../../platform/money.js';
import { isStoresAppId } from '../catalog/service.js';
import type { ItemType } from '../commerce/pricing/model.js';
import type { FulfillmentStatus, Order, OrderActivity, OrderFee, OrderLine, OrderPayment, OrderStatus, PaymentStatus } from './model.js';

/** The spec's order-import failure reasons. */
export type ImportRefusal =
  | 'PARTIALLY_OR_FULLY_REFUNDED' | 'UNSUPPORTED_CHANNEL_TYPE' | 'ORDER_STATUS_IS_NOT_SUPPORTED'
  | 'ORDER_AND_SITE_CURRENCIES_ARE_INCONSISTENT' | 'ORDER_AND_SITE_WEIGHT_UNITS_ARE_INCONSISTENT'
  | 'AMOUNTS_DO_NOT_ADD_UP' | 'ORDER_NOT_FOUND' | 'SUBSCRIPTION_LINE_ITEM_EXISTS' | 'UNSUPPORTED_CATALOG_ITEM'
  | 'TAXABLE_EXISTING_ADDITIONAL_FEE';

/** Where an imported order was sold (spec: order sources). */
export const IMPORT_CHANNELS = ['WEB', 'POS', 'EBAY', 'AMAZON', 'OTHER_PLATFORM'] as const;
export type ImportChannel = (typeof IMPORT_CHANNELS)[number];
export const IMPORT_STATUSES: readonly OrderStatus[] = ['APPROVED', 'CANCELED'];
export const IMPORT_PAYMENT_STATUSES: readonly PaymentStatus[] = ['NOT_PAID', 'PAID', 'PARTIALLY_PAID', 'CANCELED'];
export const IMPORT_FULFILLMENT_STATUSES: readonly FulfillmentStatus[] = ['NOT_FULFILLED', 'FULFILLED', 'CANCELED'];
type FeeKind = OrderFee['kind'];
/** The app id an imported order is created by (orders' createdBy.appId). */
export const IMPORT_APP_ID = 'bodega-order-import';

/** An amount as the wire gives it: a decimal string, or a JSON number that must be exact. */
export type WireAmount = string | number;
export interface WirePrice { amount: WireAmount; formattedAmount?: string }

/** The parts of the official Order shape an import reads (everything else is ignored). */
export interface ImportOrderInput {
  id?: string;
  number?: string | number;
  createdDate?: string;
  purchasedDate?: string;
  status?: string;
  paymentStatus?: string;
  fulfillmentStatus?: string;
  currency?: string;
  weightUnit?: string;
  taxIncludedInPrices?: boolean;
  channelInfo?: { type?: string; externalOrderId?: string | null; externalOrderUrl?: string | null };
  buyerInfo?: { email?: string | null };
  billingInfo?: Record<string, unknown> | null;
  buyerNote?: string | null;
  lineItems?: {
    id?: string;
    productName?: { original?: string };
    catalogReference?: { appId?: string; catalogItemId?: string };
    quantity?: number;
    price?: WirePrice;
    itemType?: { preset?: string };
    totalDiscount?: WirePrice;
    taxDetails?: { totalTax?: WirePrice };
    subscriptionInfo?: unknown;
    physicalProperties?: { weight?: number; sku?: string };
  }[];
  shippingInfo?: {
    code?: string;
    title?: string;
    logistics?: { shippingDestination?: Record<string, unknown>; pickupDetails?: Record<string, unknown> };
    cost?: { price?: WirePrice; taxDetails?: { totalTax?: WirePrice } };
  } | null;
  priceSummary?: { subtotal?: WirePrice; shipping?: WirePrice; tax?: WirePrice; discount?: WirePrice; total?: WirePrice; totalAdditionalFees?: WirePrice };
  balanceSummary?: { paid?: WirePrice; refunded?: WirePrice };
  additionalFees?: { code?: string; name?: string; price?: WirePrice; taxDetails?: { totalTax?: WirePrice } }[];
}

/** The site an order is imported into. */
export interface ImportSite {
  currency: string;
  weightUnit: string;
}

/** A checked order, before it gets its id and number. */
export interface CheckedImport {
  order: Omit<Order, 'id' | 'number'>;
  /** The number the file gives, when it gives one. */
  number?: number;
  externalOrderId?: string;
  /** Catalog items the lines name: each must be a product of this site. */
  productIds: string[];
}

function refuse(code: ImportRefusal, message: string, data: Record<string, unknown> = {}): never {
  throw new ApiError(400, code, message, data);
}

function invalid(field: string, description: string, rule: 'REQUIRED_FIELD' | 'FORMAT' | 'DECIMAL_MAX_SCALE' | 'MIN' | 'INVALID_ENUM_VALUE' = 'FORMAT'): never {
  throw ApiError.validation([{ field, rule, description }]);
}

/** An amount in minor units; a float that is not an exact amount of the currency is refused. */
export function amountOf(price: WirePrice | undefined, currency: string, field: string, required = false): bigint {
  if (price === undefined || price === null) return required ? invalid(field, 'is required', 'REQUIRED_FIELD') : 0n;
  const raw = typeof price === 'object' ? price.amount : price;
  if (typeof raw === 'number' && !Number.isFinite(raw)) invalid(field, 'is not a number');
  // A JSON number's shortest text is exact only when it has no more digits than the currency has:
  // 0.1 + 0.2 arrives as 0.30000000000000004 and is refused.
  const text = typeof raw === 'number' ? (Number.isInteger(raw) ? raw.toFixed(0) : String(raw)) : raw;
  try {
    return parseAmount(text, currency);
  } catch (error) {
    if (error instanceof MoneyError) invalid(field, error.message, error.rule === 'DECIMAL_MAX_SCALE' ? 'DECIMAL_MAX_SCALE' : 'FORMAT');
    throw error;
  }
}

function dateOf(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) invalid(field, `"${value}" is not a date`);
  return date;
}

const ITEM_TYPES: readonly ItemType[] = ['PHYSICAL', 'DIGITAL', 'SERVICE', 'CUSTOM_AMOUNT_ITEM'];

/**
 * Checks an order against the site and builds what Bodega keeps of it. Refusals, in this order:
 * where it was sold, its states, refunds, currency and weight unit, its lines, its fees, then
 * whether its amounts add up.
 */
export function checkImport(input: ImportOrderInput, site: ImportSite, at: Date, newId: () => string): CheckedImport {
  const channel = input.channelInfo?.type ?? '';
  if (!(IMPORT_CHANNELS as readonly string[]).includes(channel)) {
    refuse('UNSUPPORTED_CHANNEL_TYPE', `Orders sold on ${channel || 'an unnamed channel'} cannot be imported: the channel is one of ${IMPORT_CHANNELS.join(', ')}`, { channelType: channel });
  }
  const status = (input.status ?? 'APPROVED') as OrderStatus;
  const paymentStatus = (input.paymentStatus ?? '') as PaymentStatus;
  const fulfillmentStatus = (input.fulfillmentStatus ?? 'NOT_FULFILLED') as FulfillmentStatus;
  if (paymentStatus === 'PARTIALLY_REFUNDED' || paymentStatus === 'FULLY_REFUNDED') {
    refuse('PARTIALLY_OR_FULLY_REFUNDED', 'A refunded order cannot be imported: import it before the refund, then refund it here', { paymentStatus });
  }
  if (!IMPORT_STATUSES.includes(status)) refuse('ORDER_STATUS_IS_NOT_SUPPORTED', `An order whose status is ${status} cannot be imported (${IMPORT_STATUSES.join(' or ')})`, { status });
  if (!IMPORT_PAYMENT_STATUSES.includes(paymentStatus)) {
    refuse('ORDER_STATUS_IS_NOT_SUPPORTED', `An order whose payment status is ${paymentStatus || 'missing'} cannot be imported (${IMPORT_PAYMENT_STATUSES.join(', ')})`, { paymentStatus });
  }
  if (!IMPORT_FULFILLMENT_STATUSES.includes(fulfillmentStatus)) {
    refuse('ORDER_STATUS_IS_NOT_SUPPORTED', `An order whose fulfillment status is ${fulfillmentStatus} cannot be imported (${IMPORT_FULFILLMENT_STATUSES.join(', ')})`, { fulfillmentStatus });
  }
  let currency: string;
  try {
    currency = normalizeCurrency(input.currency ?? '');
  } catch {
    return invalid('currency', 'a three-letter currency code is required', 'REQUIRED_FIELD');
  }
  if (input.balanceSummary?.refunded !== undefined && amountOf(input.balanceSummary.refunded, currency, 'balanceSummary.refunded') > 0n) {
    refuse('PARTIALLY_OR_FULLY_REFUNDED', 'A refunded order cannot be imported: import it before the refund, then refund it here');
  }
  if (currency !== site.currency) {
    refuse('ORDER_AND_SITE_CURRENCIES_ARE_INCONSISTENT', `The order is in ${currency} and the shop sells in ${site.currency}`, { orderCurrency: currency, siteCurrency: site.currency });
  }
  if (input.weightUnit !== undefined && input.weightUnit !== site.weightUnit) {
    refuse('ORDER_AND_SITE_WEIGHT_UNITS_ARE_INCONSISTENT', `The order weighs in ${input.weightUnit} and the shop in ${site.weightUnit}`, { orderWeightUnit: input.weightUnit, siteWeightUnit: site.weightUnit });
  }

  const items = input.lineItems ?? [];
  if (items.length === 0) invalid('lineItems', 'an order has at least one line', 'REQUIRED_FIELD');
  const productIds: string[] = [];
  const lines: OrderLine[] = items.map((item, i) => {
    const field = `lineItems[${i}]`;
    if (item.subscriptionInfo !== undefined && item.subscriptionInfo !== null) {
      refuse('SUBSCRIPTION_LINE_ITEM_EXISTS', `Line ${i + 1} is a subscription: subscriptions cannot be imported`, { index: i });
    }
    const ref = item.catalogReference;
    if (ref?.catalogItemId) {
      if (!isStoresAppId(ref.appId)) refuse('UNSUPPORTED_CATALOG_ITEM', `Line ${i + 1} comes from another catalog (${ref.appId ?? 'no app'}); leave out its catalog reference to import it as a custom line`, { index: i });
      productIds.push(ref.catalogItemId);
    }
    const preset = item.itemType?.preset ?? 'PHYSICAL';
    if (preset === 'GIFT_CARD') refuse('UNSUPPORTED_CATALOG_ITEM', `Line ${i + 1} is a gift card sold elsewhere: this shop cannot honour it`, { index: i });
    if (!(ITEM_TYPES as readonly string[]).includes(preset)) invalid(`${field}.itemType.preset`, `"${preset}" is not an item type`, 'INVALID_ENUM_VALUE');
    const name = item.productName?.original?.trim();
    if (!name) invalid(`${field}.productName.original`, 'a line has a name', 'REQUIRED_FIELD');
    const quantity = item.quantity;
    if (quantity === undefined || !Number.isInteger(quantity) || quantity < 1) invalid(`${field}.quantity`, 'a whole number of at least 1', 'MIN');
    const price = amountOf(item.price, currency, `${field}.price`, true);
    const lineSubtotal = multiply(price, quantity);
    const discount = amountOf(item.totalDiscount, currency, `${field}.totalDiscount`);
    const tax = amountOf(item.taxDetails?.totalTax, currency, `${field}.taxDetails.totalTax`);
    const weight = item.physicalProperties?.weight;
    return {
      id: item.id ?? newId(),
      // Imported lines keep their product (reviews' verified buyers, reports) but never a
      // variant: stock moves only for lines with a variant, and an import takes no stock.
      ...(ref?.catalogItemId ? { productId: ref.catalogItemId, catalogReference: { appId: ref.appId as string, catalogItemId: ref.catalogItemId } } : {}),
      name,
      quantity,
      price,
      fullPrice: price,
      lineSubtotal,
      discount,
      taxableAmount: lineSubtotal - discount,
      tax,
      totalBeforeTax: lineSubtotal - discount,
      totalAfterTax: lineSubtotal - discount + tax,
      taxRate: '0',
      itemType: preset as ItemType,
      weight: typeof weight === 'number' && Number.isFinite(weight) ? String(weight) : null,
      sku: item.physicalProperties?.sku ?? null,
      image: null,
      pagePath: null,
      descriptionLines: [],
      custom: !ref?.catalogItemId,
      fulfilledQuantity: fulfillmentStatus === 'FULFILLED' ? quantity : 0,
      refundedQuantity: 0,
      restockedQuantity: 0,
    };
  });

  const fees = (input.additionalFees ?? []).map((fee, i) => {
    const tax = amountOf(fee.taxDetails?.totalTax, currency, `additionalFees[${i}].taxDetails.totalTax`);
    if (tax !== 0n) refuse('TAXABLE_EXISTING_ADDITIONAL_FEE', `The fee "${fee.name ?? fee.code ?? i + 1}" is taxed: only untaxed additional fees can be imported`, { index: i });
    const kind: FeeKind = fee.code === 'INSURANCE' ? 'INSURANCE' : 'HANDLING_FEE';
    return { code: fee.code ?? kind, name: fee.name ?? fee.code ?? 'Fee', kind, price: amountOf(fee.price, currency, `additionalFees[${i}].price`, true), tax: 0n, taxable: false };
  });

  const summary = input.priceSummary ?? {};
  const subtotal = amountOf(summary.subtotal, currency, 'priceSummary.subtotal', true);
  const shipping = amountOf(summary.shipping, currency, 'priceSummary.shipping');
  const tax = amountOf(summary.tax, currency, 'priceSummary.tax');
  const discount = amountOf(summary.discount, currency, 'priceSummary.discount');
  const total = amountOf(summary.total, currency, 'priceSummary.total', true);
  const feesTotal = fees.reduce((sum, f) => sum + f.price, 0n);
  const money = (minor: bigint) => formatAmount(minor, currency);
  const sumOfLines = lines.reduce((sum, l) => sum + l.lineSubtotal, 0n);
  if (sumOfLines !== subtotal) {
    refuse('AMOUNTS_DO_NOT_ADD_UP', `The lines come to ${money(sumOfLines)} but the subtotal is ${money(subtotal)}`, { expected: money(sumOfLines), subtotal: money(subtotal) });
  }
  if (summary.totalAdditionalFees !== undefined && amountOf(summary.totalAdditionalFees, currency, 'priceSummary.totalAdditionalFees') !== feesTotal) {
    refuse('AMOUNTS_DO_NOT_ADD_UP', `The additional fees come to ${money(feesTotal)} but their total is ${money(amountOf(summary.totalAdditionalFees, currency, 'priceSummary.totalAdditionalFees'))}`);
  }
  // Prices that include tax already hold it: the tax is then not added again.
  const computed = subtotal - discount + shipping + feesTotal + (input.taxIncludedInPrices ? 0n : tax);
  if (computed !== total) {
    refuse('AMOUNTS_DO_NOT_ADD_UP', `Subtotal ${money(subtotal)} − discount ${money(discount)} + shipping ${money(shipping)} + fees ${money(feesTotal)}${input.taxIncludedInPrices ? '' : ` + tax ${money(tax)}`} is ${money(computed)}, not the total ${money(total)}`, { expected: money(computed), total: money(total) });
  }
  const paid = paidOf(input, paymentStatus, total, currency);

  const createdDate = dateOf(input.createdDate, 'createdDate') ?? dateOf(input.purchasedDate, 'purchasedDate') ?? at;
  const purchasedDate = dateOf(input.purchasedDate, 'purchasedDate') ?? createdDate;
  const activities: OrderActivity[] = [{ id: newId(), type: 'ORDER_PLACED', createdDate }];
  const payments: OrderPayment[] = [];
  if (paid > 0n) {
    payments.push({ id: newId(), amount: paid, method: 'offline', methodName: `Imported (${channel})`, status: 'APPROVED', refunded: 0n, createdDate });
    activities.push({ id: newId(), type: paid === total ? 'ORDER_PAID' : 'ORDER_PARTIALLY_PAID', createdDate, amount: paid });
  }
  if (fulfillmentStatus === 'FULFILLED') activities.push({ id: newId(), type: 'ORDER_FULFILLED', createdDate });
  if (status === 'CANCELED') activities.push({ id: newId(), type: 'ORDER_CANCELED', createdDate });

  const ship = input.shippingInfo;
  const shippingTax = amountOf(ship?.cost?.taxDetails?.totalTax, currency, 'shippingInfo.cost.taxDetails.totalTax');
  const number = numberOf(input.number);
  const externalOrderId = input.channelInfo?.externalOrderId?.trim() || undefined;
  const externalOrderUrl = input.channelInfo?.externalOrderUrl?.trim() || undefined;
  return {
    ...(number !== undefined && { number }),
    ...(externalOrderId !== undefined && { externalOrderId }),
    productIds,
    order: {
      checkoutId: null,
      buyer: { kind: 'app', id: IMPORT_APP_ID },
      email: input.buyerInfo?.email?.trim() || null,
      status,
      paymentStatus,
      fulfillmentStatus: status === 'CANCELED' ? 'CANCELED' : fulfillmentStatus,
      currency,
      totals: { subtotal, discount, shipping, tax, total },
      paid,
      refunded: 0n,
      stockState: 'NONE',
      archived: false,
      lines,
      appliedDiscounts: discount > 0n ? [{ source: 'MERCHANT', amount: discount, discountType: 'GLOBAL', lineItemIds: [] }] : [],
      shipping: ship
        ? {
            code: ship.code ?? 'imported',
            title: ship.title ?? 'Shipping',
            kind: ship.logistics?.pickupDetails ? 'PICKUP' : 'DELIVERY',
            cost: shipping,
            tax: shippingTax,
            ...(ship.logistics?.shippingDestination ? { destination: ship.logistics.shippingDestination } : {}),
          }
        : null,
      billingInfo: input.billingInfo ?? null,
      buyerNote: input.buyerNote ?? null,
      tax: { total: tax, pricesIncludeTax: input.taxIncludedInPrices ?? false, rateType: tax > 0n ? 'MANUAL_RATE' : 'NO_TAX_COLLECTED' },
      paymentOption: 'FULL_PAYMENT_OFFLINE',
      channelType: channel,
      createdBy: { kind: 'app', id: IMPORT_APP_ID },
      weightUnit: site.weightUnit,
      activities,
      payments,
      refunds: [],
      fulfillments: fulfillmentStatus === 'FULFILLED' ? [{ id: newId(), lineItems: lines.map((l) => ({ id: l.id, quantity: l.quantity })), createdDate }] : [],
      additionalFees: fees,
      imported: { externalOrderId: externalOrderId ?? null, ...(externalOrderUrl ? { externalOrderUrl } : {}), importedDate: at },
      purchasedDate,
      createdDate,
      updatedDate: at,
    },
  };
}

/** What was paid: all of it for PAID, nothing for NOT_PAID, and the balance's `paid` in between. */
function paidOf(input: ImportOrderInput, paymentStatus: PaymentStatus, total: bigint, currency: string): bigint {
  const given = input.balanceSummary?.paid === undefined ? undefined : amountOf(input.balanceSummary.paid, currency, 'balanceSummary.paid');
  const paid = paymentStatus === 'PAID' ? total : paymentStatus === 'PARTIALLY_PAID' ? given ?? -1n : 0n;
  if (given !== undefined && given !== paid) refuse('AMOUNTS_DO_NOT_ADD_UP', `A ${paymentStatus} order of ${formatAmount(total, currency)} cannot have ${formatAmount(given, currency)} paid`);
  if (paymentStatus === 'PARTIALLY_PAID' && (paid <= 0n || paid >= total)) {
    refuse('AMOUNTS_DO_NOT_ADD_UP', `A partly paid order gives balanceSummary.paid between nothing and the total ${formatAmount(total, currency)}`);
  }
  return paid;
}

function numberOf(value: string | number | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const text = String(value).trim();
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) invalid('number', 'an order number is a whole number from 1 to 999999999');
  return Number(text);
}
