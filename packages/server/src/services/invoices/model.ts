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
  /** One line per tax rate (lines and shipping together). */
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
  doc: InvoiceDocument | null;
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
