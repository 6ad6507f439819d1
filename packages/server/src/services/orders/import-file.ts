// An order-import file → orders in the importOrder shape. JSON: an array of orders as the official
// importOrder call takes them. CSV (README "Order import"): one row per line item, grouped by
// `orderId`; the row that gives the order's `total` carries the order's columns. Pure.
import { parse } from 'csv-parse/sync';
import { restoreCell } from '../../platform/csv-cells.js';
import { ApiError } from '../../platform/errors.js';
import { STORES_APP_ID } from '../catalog/service.js';
import type { ImportOrderInput, WirePrice } from './import-model.js';

export const MAX_IMPORT_ORDERS = 1000;
export const MAX_IMPORT_ROWS = 5000;

/** The order columns of the CSV, then the line columns (README). */
export const ORDER_CSV_COLUMNS = [
  'orderId', 'orderUrl', 'source', 'number', 'createdDate', 'status', 'paymentStatus', 'fulfillmentStatus', 'currency', 'weightUnit',
  'email', 'subtotal', 'shipping', 'tax', 'discount', 'total', 'paid', 'refunded', 'taxIncludedInPrices', 'handlingFee', 'insuranceFee',
  'feesTax', 'shippingTitle', 'shippingCountry', 'shippingCity', 'shippingAddress', 'shippingPostalCode', 'recipientName',
] as const;
export const LINE_CSV_COLUMNS = ['lineName', 'lineQuantity', 'linePrice', 'lineSku', 'lineProductId', 'lineType', 'lineDiscount', 'lineTax', 'lineSubscription'] as const;

/**
 * One order of the file: the rows it was read from (1 = the first data row), each row as it came
 * (`data`, for the failures file), and the order, or why it cannot be read.
 */
export type FileOrder = { rows: number[]; data: Record<string, unknown>[]; externalOrderId?: string } & ({ input: ImportOrderInput } | { error: ApiError });

type Row = Record<string, string>;

function fileError(message: string): ApiError {
  return ApiError.validation([{ field: 'content', rule: 'FORMAT', description: message }]);
}

/** The file's orders; a file that cannot be read at all is refused whole. */
export function readOrderFile(format: 'csv' | 'json', content: string): FileOrder[] {
  const orders = format === 'json' ? readJson(content) : readCsv(content);
  if (orders.length > MAX_IMPORT_ORDERS) throw fileError(`at most ${MAX_IMPORT_ORDERS} orders in one file`);
  return orders;
}

function readJson(content: string): FileOrder[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch (error) {
    throw fileError(`the file is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(parsed)) throw fileError('a JSON import is an array of orders');
  return parsed.map((item: unknown, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return { rows: [i + 1], data: [{ item }], error: fileError(`item ${i + 1} is not an order object`) };
    const input = item as ImportOrderInput;
    const externalOrderId = typeof input.channelInfo?.externalOrderId === 'string' ? input.channelInfo.externalOrderId : undefined;
    return { rows: [i + 1], data: [item as Record<string, unknown>], ...(externalOrderId !== undefined && { externalOrderId }), input };
  });
}

function readCsv(content: string): FileOrder[] {
  let rows: Row[];
  try {
    // Cells as written, less the `'` an export puts before a formula-like value (csv-cells.ts).
    rows = parse(content, { columns: true, skip_empty_lines: true, bom: true, relax_column_count: true, trim: true, cast: (value) => restoreCell(value) }) as Row[];
  } catch (error) {
    throw fileError(`the CSV cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (rows.length > MAX_IMPORT_ROWS) throw fileError(`at most ${MAX_IMPORT_ROWS} rows in one file`);
  const groups = new Map<string, { rows: number[]; data: Row[] }>();
  const out: FileOrder[] = [];
  rows.forEach((row, i) => {
    const id = (row.orderId ?? '').trim();
    if (!id) {
      out.push({ rows: [i + 1], data: [row], error: ApiError.validation([{ field: 'orderId', rule: 'REQUIRED_FIELD', description: 'every row names its order in orderId' }]) });
      return;
    }
    const group = groups.get(id) ?? { rows: [], data: [] };
    group.rows.push(i + 1);
    group.data.push(row);
    groups.set(id, group);
  });
  for (const [externalOrderId, group] of groups) {
    const head = group.data.find((r) => (r.total ?? '') !== '');
    if (!head) {
      out.push({ rows: group.rows, data: group.data, externalOrderId, error: ApiError.notFound('ORDER_NOT_FOUND', `No row gives order ${externalOrderId}'s total: its lines have no order to go to`, { orderId: externalOrderId }) });
      continue;
    }
    out.push({ rows: group.rows, data: group.data, externalOrderId, input: orderOfRows(externalOrderId, head, group.data) });
  }
  return out.sort((a, b) => a.rows[0] - b.rows[0]);
}

const price = (cell: string | undefined): WirePrice | undefined => (cell === undefined || cell === '' ? undefined : { amount: cell });
const text = (cell: string | undefined): string | undefined => (cell === undefined || cell === '' ? undefined : cell);

function orderOfRows(externalOrderId: string, head: Row, rows: Row[]): ImportOrderInput {
  const fees: NonNullable<ImportOrderInput['additionalFees']> = [
    ...(head.handlingFee ? [{ code: 'HANDLING_FEE', name: 'Handling fee', price: { amount: head.handlingFee } }] : []),
    ...(head.insuranceFee ? [{ code: 'INSURANCE', name: 'Insurance', price: { amount: head.insuranceFee } }] : []),
  ];
  // The file gives the fees' tax as one cell: it goes on the first fee (any tax refuses the order).
  if (head.feesTax && fees.length) fees[0] = { ...fees[0], taxDetails: { totalTax: { amount: head.feesTax } } };
  const destination = head.shippingCountry || head.shippingCity || head.shippingAddress
    ? {
        address: { ...(head.shippingCountry && { country: head.shippingCountry }), ...(head.shippingCity && { city: head.shippingCity }), ...(head.shippingAddress && { addressLine1: head.shippingAddress }), ...(head.shippingPostalCode && { postalCode: head.shippingPostalCode }) },
        ...(head.recipientName ? { contactDetails: { firstName: head.recipientName } } : {}),
      }
    : undefined;
  const lines = rows.filter((r) => r.lineName || r.linePrice || r.lineQuantity);
  return {
    ...(text(head.number) !== undefined && { number: head.number }),
    ...(text(head.createdDate) !== undefined && { createdDate: head.createdDate }),
    ...(text(head.status) !== undefined && { status: head.status }),
    paymentStatus: head.paymentStatus ?? '',
    ...(text(head.fulfillmentStatus) !== undefined && { fulfillmentStatus: head.fulfillmentStatus }),
    currency: head.currency ?? '',
    ...(text(head.weightUnit) !== undefined && { weightUnit: head.weightUnit }),
    ...(/^(true|yes|1)$/i.test(head.taxIncludedInPrices ?? '') && { taxIncludedInPrices: true }),
    channelInfo: { type: head.source ?? '', externalOrderId, ...(head.orderUrl ? { externalOrderUrl: head.orderUrl } : {}) },
    ...(head.email ? { buyerInfo: { email: head.email } } : {}),
    lineItems: lines.map((r) => ({
      productName: { original: r.lineName ?? '' },
      quantity: /^\d+$/.test(r.lineQuantity ?? '') ? Number(r.lineQuantity) : Number.NaN,
      ...(price(r.linePrice) && { price: price(r.linePrice) }),
      ...(r.lineProductId ? { catalogReference: { appId: STORES_APP_ID, catalogItemId: r.lineProductId } } : {}),
      ...(r.lineType ? { itemType: { preset: r.lineType } } : {}),
      ...(price(r.lineDiscount) && { totalDiscount: price(r.lineDiscount) }),
      ...(price(r.lineTax) && { taxDetails: { totalTax: price(r.lineTax) } }),
      ...(r.lineSubscription ? { subscriptionInfo: { frequency: r.lineSubscription } } : {}),
      ...(r.lineSku ? { physicalProperties: { sku: r.lineSku } } : {}),
    })),
    ...(head.shippingTitle || destination ? { shippingInfo: { title: head.shippingTitle || 'Shipping', ...(destination ? { logistics: { shippingDestination: destination } } : {}) } } : {}),
    priceSummary: {
      subtotal: price(head.subtotal) ?? { amount: '' },
      ...(price(head.shipping) && { shipping: price(head.shipping) }),
      ...(price(head.tax) && { tax: price(head.tax) }),
      ...(price(head.discount) && { discount: price(head.discount) }),
      total: { amount: head.total },
    },
    ...(head.paid || head.refunded ? { balanceSummary: { ...(head.paid && { paid: { amount: head.paid } }), ...(head.refunded && { refunded: { amount: head.refunded } }) } } : {}),
    ...(fees.length ? { additionalFees: fees } : {}),
  };
}
