// The member's invoices of one order, each with its PDF to download.
import { invoiceFileName, invoiceStatusLabel } from '../domain/invoice.js';
import { plainError } from '../shop/errors.js';
import { Notice } from '../ui/Notice.js';
import { saveFile } from '../ui/save-file.js';
import { orderDate } from './labels.js';
import { useMyInvoicePdf, useMyOrderInvoices } from './queries.js';

/** What a buyer is told of an invoice's state (whether the shop mailed it is the shop's business). */
const SHOWN = new Set(['Paid', 'PartiallyPaid', 'Void', 'Overdue', 'PartialAndOverdue']);
/** While something is still to pay, the buyer sees by when. */
const OWING = new Set(['Draft', 'Sent', 'Processing', 'PartiallyPaid', 'Overdue', 'PartialAndOverdue']);

export function OrderInvoices({ orderId }: { orderId: string }) {
  const invoices = useMyOrderInvoices(orderId);
  const pdf = useMyInvoicePdf();
  const mine = (invoices.data ?? []).filter((i) => i.hasDocument);
  if (mine.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="invoices-heading">
      <h2 id="invoices-heading">Invoices</h2>
      {pdf.isError && <Notice kind="error">{plainError(pdf.error)}</Notice>}
      <ul className="mini-lines" role="list">
        {mine.map((i) => (
          <li key={i.id}>
            <span className="mini-name">Invoice {i.invoiceNumber}
              <span className="block muted small" data-status={i.status}>
                {`Issued ${orderDate(i.issuedDate)}${i.dueDate && OWING.has(i.status) ? ` · due ${orderDate(i.dueDate)}` : ''}${SHOWN.has(i.status) ? ` · ${invoiceStatusLabel(i.status)}` : ''}`}
              </span>
            </span>
            <button type="button" className="button secondary small" disabled={pdf.isPending}
              onClick={() => pdf.mutate(i.id, { onSuccess: (blob) => saveFile(invoiceFileName(i.invoiceNumber, i.id), blob) })}>
              Download PDF<span className="visually-hidden"> of invoice {i.invoiceNumber}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
