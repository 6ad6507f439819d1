import type { InvoiceStatus as Status } from '@bodega/sdk';
import { invoiceStatusLabel, invoiceStatusTone } from '../../domain/invoice.js';

/** An invoice's status as a word (never colour alone), the raw value kept for tests and tools. */
export function InvoiceStatus({ value }: { value: Status }) {
  return <span className={`status status-${invoiceStatusTone(value)}`} data-status={value}>{invoiceStatusLabel(value)}</span>;
}
