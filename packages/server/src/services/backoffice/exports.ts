// CSV exports, produced a batch at a time so a large store streams instead of filling memory.
import { stringify } from 'csv-stringify/sync';
import { formatAmount } from '../../platform/money.js';
import type { Order } from '../orders/service.js';
import type { MemberRecord } from '../members/service.js';
import type { Product } from '../catalog/service.js';
import { PRODUCT_CSV_COLUMNS, productToRows } from './products-csv.js';
import { neutraliseRows } from '../../platform/csv-cells.js';

export const ORDER_CSV_COLUMNS = [
  'number', 'id', 'createdDate', 'status', 'paymentStatus', 'fulfillmentStatus', 'buyerEmail', 'currency',
  'subtotal', 'discount', 'shipping', 'tax', 'total', 'paid', 'refunded', 'itemCount', 'items', 'shippingTitle', 'trackingNumbers',
] as const;

export const MEMBER_CSV_COLUMNS = [
  'id', 'loginEmail', 'nickname', 'firstName', 'lastName', 'status', 'role', 'privacyStatus', 'activityStatus', 'createdDate', 'lastLoginDate',
] as const;

function orderRow(o: Order): string[] {
  const money = (minor: bigint) => formatAmount(minor, o.currency);
  return [
    String(o.number), o.id, o.createdDate.toISOString(), o.status, o.paymentStatus, o.fulfillmentStatus, o.email ?? '', o.currency,
    money(o.totals.subtotal), money(o.totals.discount), money(o.totals.shipping), money(o.totals.tax), money(o.totals.total),
    money(o.paid), money(o.refunded),
    String(o.lines.reduce((n, l) => n + l.quantity, 0)),
    o.lines.map((l) => `${l.quantity} x ${l.name}`).join(' | '),
    o.shipping?.title ?? '',
    o.fulfillments.flatMap((f) => (f.trackingInfo?.trackingNumber ? [f.trackingInfo.trackingNumber] : [])).join(' | '),
  ];
}

function memberRow(m: MemberRecord): string[] {
  return [
    m.id, m.loginEmail, m.nickname ?? '', m.firstName ?? '', m.lastName ?? '', m.status, m.role, m.privacyStatus, m.activityStatus,
    m.createdDate.toISOString(), m.lastLoginDate ? m.lastLoginDate.toISOString() : '',
  ];
}

/** `toRows` gives each item's rows (a product has one per variant). */
async function* csv<T>(header: readonly string[], batches: AsyncIterable<T[]>, toRows: (item: T) => string[][]): AsyncGenerator<string> {
  yield stringify([header as string[]]);
  for await (const batch of batches) yield stringify(neutraliseRows(batch.flatMap(toRows)));
}

export function ordersCsv(batches: AsyncIterable<Order[]>): AsyncGenerator<string> {
  return csv(ORDER_CSV_COLUMNS, batches, (o) => [orderRow(o)]);
}

export function membersCsv(batches: AsyncIterable<MemberRecord[]>): AsyncGenerator<string> {
  return csv(MEMBER_CSV_COLUMNS, batches, (m) => [memberRow(m)]);
}

export function productsCsv(batches: AsyncIterable<{ product: Product; collectionSlugs: string[] }[]>, currency: string): AsyncGenerator<string> {
  return csv(PRODUCT_CSV_COLUMNS.map((c) => c.name), batches, (p) => productToRows(p.product, currency, p.collectionSlugs));
}
