// An invoice: the order as it stood when the invoice was issued (seller, buyer, lines, discounts,
// shipping, tax lines and totals, amounts in minor units as decimal-free strings so JSON keeps
// them exact), and its status, which follows the order it bills. Pure: no I/O, no clock.
import type { Order } from '../orders/service.js';

/** Spec: invoice status. Overdue and PartialAndOverdue come with a due date (the site's payment terms). */
export type InvoiceStatus = 'Draft' | 'Sent' | 'Processing' | 'Paid' | 'Overdue' | 'Void' | 'Deleted' | 'PartiallyPaid' | 'PartialAndOverdue';
export const INVOICE_STATUSES: readonly InvoiceStatus[] = ['Draft', 'Sent', 'Processing', 'Paid', 'Overdue', 'Void', 'Deleted', 'PartiallyPaid', 'PartialAndOverdue'];

/** A tax id printed on the invoice: a VAT number, a Brazilian CPF or CNPJ. */
export interface TaxId {
  id: string;
  /** CPF, CNPJ, VAT, or what the checkout was given. */
  type: string;
}

export interface Party {
  name: string;
  company?: string;
  email?: string;
  phone?: string;
  /** The address as printed, one line each. */
  addressLines: string[];
  taxId?: TaxId;
}

export interface InvoiceLine {
  name: string;
  /** Variant choices and the like ("Size: M"). */
  details: string[];
  quantity: number;
  unitPrice: string;
  discount: string;
  /** A fraction: "0.0725". */
  taxRate: string;
  tax: string;
  /** Quantity × unit price (the discount is taken off in the totals). */
  total: string;
}

export interface InvoiceDocument {
  orderId: string;
  orderNumber: number;
  currency: string;
  seller: Party;
  buyer: Party;
  /** Where a delivery goes, when it differs from the buyer's address. */
  shipTo?: Party;
  lines: InvoiceLine[];
  discounts: { name: string; amount: string }[];
  shipping?: { title: string; amount: string };
  /** Additional fees (HANDLING_FEE, INSURANCE) as charged: inside-tax prices when prices include tax. Absent on invoices issued before fees were listed. */
  fees?: { kind: string; name: string; amount: string; tax: string }[];
  /** The shopper's tip (untaxed). */
  tip?: { name: string; amount: string };
  /** One line per tax rate (lines and shipping together), then the fees' tax. */
  taxLines: { name: string; rate: string; taxable: string; amount: string }[];
  totals: { subtotal: string; discount: string; shipping: string; tax: string; total: string; paid: string; due: string };
  pricesIncludeTax: boolean;
}

export interface Invoice {
  id: string;
  orderId: string;
  /** Absent on an app's own invoice (addInvoiceToOrder). */
  number: number | null;
  /** The number as printed, with the site's prefix ("INV-12"). */
  invoiceNumber: string | null;
  appId: string | null;
  currency: string;
  total: bigint;
  issuedDate: Date;
  /** When it is to be paid: the issue date plus the site's payment terms; null without terms. */
  dueDate: Date | null;
  sentDate: Date | null;
  sentTo: string | null;
  /** When staff voided it (a Sent or Overdue invoice) or deleted it (a Draft one); it keeps its number. */
  voidedDate?: Date | null;
  deletedDate?: Date | null;
  doc: InvoiceDocument | null;
}

/** What a row of the invoice's totals is. */
export type SummaryKind = 'SUBTOTAL' | 'DISCOUNT' | 'SHIPPING' | 'FEE' | 'TIP' | 'TAX' | 'OTHER';
export const SUMMARY_KINDS: readonly SummaryKind[] = ['SUBTOTAL', 'DISCOUNT', 'SHIPPING', 'FEE', 'TIP', 'TAX', 'OTHER'];

/** A row of the invoice's totals: a signed amount in minor units; the rows that add to the total sum to it exactly. */
export interface SummaryRow {
  kind: SummaryKind;
  name: string;
  amount: bigint;
  /** False for a tax already inside the prices (shown, not added). */
  addsToTotal: boolean;
}

/**
 * The rows between the lines and the total, in the order printed: subtotal, each discount,
 * shipping, each fee, the tip, each tax line. They add up to the total exactly; an invoice issued
 * before fees and tips were listed gets one "Other charges" row for what its document left out.
 */
export function summaryRows(doc: InvoiceDocument): SummaryRow[] {
  const taxAdds = !doc.pricesIncludeTax;
  const rows: SummaryRow[] = [{ kind: 'SUBTOTAL', name: 'Subtotal', amount: BigInt(doc.totals.subtotal), addsToTotal: true }];
  const discounts = doc.discounts.length ? doc.discounts : BigInt(doc.totals.discount) > 0n ? [{ name: 'Discount', amount: doc.totals.discount }] : [];
  for (const d of discounts) rows.push({ kind: 'DISCOUNT', name: d.name, amount: -BigInt(d.amount), addsToTotal: true });
  if (doc.shipping) rows.push({ kind: 'SHIPPING', name: `Shipping (${doc.shipping.title})`, amount: BigInt(doc.shipping.amount), addsToTotal: true });
  for (const fee of doc.fees ?? []) rows.push({ kind: 'FEE', name: fee.name, amount: BigInt(fee.amount), addsToTotal: true });
  if (doc.tip) rows.push({ kind: 'TIP', name: doc.tip.name, amount: BigInt(doc.tip.amount), addsToTotal: true });
  const taxes = doc.taxLines.length ? doc.taxLines : [{ name: 'Tax', amount: doc.totals.tax }];
  for (const tax of taxes) rows.push({ kind: 'TAX', name: tax.name, amount: BigInt(tax.amount), addsToTotal: taxAdds });
  const rest = BigInt(doc.totals.total) - rows.reduce((sum, row) => (row.addsToTotal ? sum + row.amount : sum), 0n);
  if (rest !== 0n) rows.push({ kind: 'OTHER', name: 'Other charges', amount: rest, addsToTotal: true });
  return rows;
}

/** An invoice with its status and what the list shows of its order. */
export interface InvoiceView extends Invoice {
  status: InvoiceStatus;
  orderNumber: number;
  customer: string | null;
}

/** The due date of an invoice issued at `issued` under terms of `days` (none: no due date). */
export function dueDateOf(issued: Date, days: number | null): Date | null {
  return days === null ? null : new Date(issued.getTime() + days * 86_400_000);
}

/** The printed number: the site's prefix and the counter's value. */
export function printedNumber(prefix: string, number: number): string {
  return `${prefix}${number}`;
}

export interface SellerSettings {
  /** The store's name (the site's name unless the settings give another). */
  name: string;
  address: string | null;
  taxId: string | null;
}

type Loose = Record<string, unknown> | null | undefined;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A wire address as printed lines: street, city line, region and country. */
export function addressLines(address: Loose): string[] {
  if (!address) return [];
  const street = record(address.streetAddress);
  const streetLine = text(address.addressLine) ?? (street ? [text(street.number), text(street.name)].filter(Boolean).join(' ') : undefined);
  const apt = text(address.addressLine2) ?? (street ? text(street.apt) : undefined);
  const cityLine = [text(address.postalCode), text(address.city)].filter(Boolean).join(' ');
  const region = [text(address.subdivisionFullname) ?? text(address.subdivision), text(address.countryFullname) ?? text(address.country)].filter(Boolean).join(', ');
  return [streetLine, apt, cityLine, region].filter((l): l is string => Boolean(l));
}

/** The buyer (or a delivery's recipient) from the order's billing or shipping contact. */
export function partyOf(info: Loose, fallbackName: string, email?: string | null): Party {
  const contact = record(info?.contactDetails);
  const name = [text(contact?.firstName), text(contact?.lastName)].filter(Boolean).join(' ') || fallbackName;
  const vat = record(contact?.vatId);
  const taxIdValue = text(vat?.id);
  return {
    name,
    ...(text(contact?.company) && { company: text(contact?.company) }),
    ...(email && { email }),
    ...(text(contact?.phone) && { phone: text(contact?.phone) }),
    addressLines: addressLines(record(info?.address)),
    ...(taxIdValue && { taxId: { id: taxIdValue, type: text(vat?.type) ?? 'VAT' } }),
  };
}

function percent(rate: string): string {
  const value = Number(rate) * 100;
  // Only for the label: amounts never pass through a float.
  return `${Number.isFinite(value) ? Number(value.toFixed(4)) : rate}%`;
}

/** The invoice as the order stands now, for the seller given. */
export function invoiceDocument(order: Order, seller: SellerSettings): InvoiceDocument {
  const buyer = partyOf(order.billingInfo, order.email ?? 'Customer', order.email);
  const destination = order.shipping?.kind === 'DELIVERY' ? record(order.shipping.destination) : undefined;
  const shipTo = destination ? partyOf(destination, buyer.name) : undefined;
  const shipToDiffers = shipTo && shipTo.addressLines.join('\n') !== buyer.addressLines.join('\n');
  const byRate = new Map<string, { taxable: bigint; amount: bigint }>();
  for (const line of order.lines) {
    if (line.tax === 0n && Number(line.taxRate) === 0) continue;
    const at = byRate.get(line.taxRate) ?? { taxable: 0n, amount: 0n };
    byRate.set(line.taxRate, { taxable: at.taxable + line.taxableAmount, amount: at.amount + line.tax });
  }
  const taxLines = [...byRate.entries()].map(([rate, sums]) => ({ name: `Tax ${percent(rate)}`, rate, taxable: sums.taxable.toString(), amount: sums.amount.toString() }));
  if (order.shipping && order.shipping.tax > 0n) {
    taxLines.push({ name: 'Tax on shipping', rate: '', taxable: order.shipping.cost.toString(), amount: order.shipping.tax.toString() });
  }
  const fees = order.additionalFees ?? [];
  const taxedFees = fees.filter((f) => f.tax > 0n);
  if (taxedFees.length) {
    const taxable = taxedFees.reduce((sum, f) => sum + f.price, 0n);
    taxLines.push({ name: 'Tax on fees', rate: order.tax.rate ?? '', taxable: taxable.toString(), amount: taxedFees.reduce((sum, f) => sum + f.tax, 0n).toString() });
  }
  const paid = order.paid < order.totals.total ? order.paid : order.totals.total;
  return {
    orderId: order.id,
    orderNumber: order.number,
    currency: order.currency,
    seller: {
      name: seller.name,
      addressLines: (seller.address ?? '').split('\n').map((l) => l.trim()).filter(Boolean),
      ...(seller.taxId && { taxId: { id: seller.taxId, type: 'VAT' } }),
    },
    buyer,
    ...(shipTo && shipToDiffers && { shipTo }),
    lines: order.lines.map((line) => ({
      name: line.name,
      details: line.descriptionLines.map((d) => `${d.name}: ${d.value}`),
      quantity: line.quantity,
      unitPrice: line.price.toString(),
      discount: line.discount.toString(),
      taxRate: line.taxRate,
      tax: line.tax.toString(),
      total: line.lineSubtotal.toString(),
    })),
    discounts: order.appliedDiscounts.map((d) => ({ name: d.name ?? (d.code ? `Coupon ${d.code}` : 'Discount'), amount: d.amount.toString() })),
    ...(order.shipping && { shipping: { title: order.shipping.title, amount: order.shipping.cost.toString() } }),
    ...(fees.length > 0 && { fees: fees.map((f) => ({ kind: f.kind, name: f.name, amount: f.price.toString(), tax: f.tax.toString() })) }),
    ...(order.tip && order.tip.amount > 0n && { tip: { name: 'Tip', amount: order.tip.amount.toString() } }),
    taxLines,
    totals: {
      subtotal: order.totals.subtotal.toString(),
      discount: order.totals.discount.toString(),
      shipping: order.totals.shipping.toString(),
      tax: order.totals.tax.toString(),
      total: order.totals.total.toString(),
      paid: paid.toString(),
      due: (order.totals.total - paid).toString(),
    },
    pricesIncludeTax: order.tax.pricesIncludeTax,
  };
}
