// Invoice statuses in words and tones, for the back office and the member's account alike.
import type { InvoiceStatus } from '@bodega/sdk';

const LABELS: Record<InvoiceStatus, string> = {
  Draft: 'Not sent', Sent: 'Sent', Processing: 'Payment pending', Paid: 'Paid', Overdue: 'Overdue', Void: 'Void',
  Deleted: 'Deleted', PartiallyPaid: 'Partly paid', PartialAndOverdue: 'Partly paid, overdue',
};

const TONES: Record<InvoiceStatus, 'ok' | 'warn' | 'bad' | 'soft'> = {
  Draft: 'soft', Sent: 'warn', Processing: 'warn', Paid: 'ok', Overdue: 'bad', Void: 'soft', Deleted: 'soft', PartiallyPaid: 'warn', PartialAndOverdue: 'bad',
};

/** The statuses the back office's list filters by, in the order a merchant thinks of them. */
export const INVOICE_FILTER_STATUSES: readonly InvoiceStatus[] = ['Draft', 'Sent', 'Processing', 'PartiallyPaid', 'Overdue', 'PartialAndOverdue', 'Paid', 'Void', 'Deleted'];

export function invoiceStatusLabel(status: InvoiceStatus): string {
  return LABELS[status];
}

export function invoiceStatusTone(status: InvoiceStatus): string {
  return TONES[status];
}

/** The file name a downloaded invoice is saved under. */
export function invoiceFileName(invoiceNumber: string | null, id: string): string {
  return `invoice-${invoiceNumber ?? id}.pdf`;
}
