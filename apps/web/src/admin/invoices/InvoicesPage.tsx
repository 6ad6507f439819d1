import { Link, useSearchParams } from '../../router/Router.js';
import type { InvoiceStatus as Status } from '@bodega/sdk';
import { INVOICE_FILTER_STATUSES, invoiceFileName, invoiceStatusLabel } from '../../domain/invoice.js';
import { ErrorState, Loading } from '../../ui/States.js';
import { SearchForm } from '../SearchForm.js';
import { PageHead, saveFile, shortDate, useResult } from '../ui.js';
import { usePermissions } from '../context.js';
import { InvoiceSettingsPanel } from './InvoiceSettingsPanel.js';
import { InvoiceStatus } from './InvoiceStatus.js';
import { INVOICES_PAGE_SIZE, useInvoicePdf, useInvoices } from './queries.js';

/** The site's invoices, newest first: number, dates, order, customer, status, total; searched, filtered by status and paged on the server. */
export default function InvoicesPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const status = INVOICE_FILTER_STATUSES.find((v) => v === params.get('status')) ?? '';
  const offset = Math.max(0, Number(params.get('offset') ?? '0') || 0);
  const invoices = useInvoices(q, status, offset);
  const pdf = useInvoicePdf();
  const result = useResult();
  const { owner } = usePermissions();

  function go(next: { q?: string; status?: Status | ''; offset?: number }) {
    const p = new URLSearchParams();
    const term = next.q ?? q;
    const only = next.status ?? status;
    if (term) p.set('q', term);
    if (only) p.set('status', only);
    if (next.offset) p.set('offset', String(next.offset));
    setParams(p, { replace: true });
  }
  function download(id: string, invoiceNumber: string | null) {
    result.clear();
    pdf.mutate(id, { onSuccess: (blob) => saveFile(invoiceFileName(invoiceNumber, id), blob), onError: (error) => result.fail(error) });
  }

  const page = invoices.data;
  const list = page?.invoices ?? [];
  return (
    <>
      <PageHead title="Invoices" lead="One invoice per order, numbered without gaps. Issue and send them from an order's page." />
      {result.view}
      <div className="filters-bar" role="search" aria-label="Search invoices">
        <SearchForm id="invoice-q" label="Invoice, order, e-mail or name" value={q} onSearch={(term) => go({ q: term, offset: 0 })} />
        <div className="filter">
          <label htmlFor="invoice-status">Status</label>
          <select id="invoice-status" value={status} onChange={(e) => go({ status: INVOICE_FILTER_STATUSES.find((v) => v === e.target.value) ?? '', offset: 0 })}>
            <option value="">Any</option>
            {INVOICE_FILTER_STATUSES.map((v) => <option key={v} value={v}>{invoiceStatusLabel(v)}</option>)}
          </select>
        </div>
      </div>
      {invoices.isPending && <Loading label="Loading invoices…" />}
      {invoices.isError && <ErrorState error={invoices.error} retry={() => void invoices.refetch()} />}
      {page && (
        <>
          <div className="table-wrap" aria-busy={invoices.isFetching}>
            <table className="table cards">
              <caption className="visually-hidden">Invoices, newest first</caption>
              <thead><tr><th scope="col">Invoice</th><th scope="col">Date</th><th scope="col">Due</th><th scope="col">Order</th><th scope="col">Customer</th><th scope="col">Status</th><th scope="col" className="num">Total</th><th scope="col"><span className="visually-hidden">PDF</span></th></tr></thead>
              <tbody>
                {list.length === 0 && <tr><td colSpan={8} className="muted">{q || status ? 'No invoices match.' : 'No invoices yet.'}</td></tr>}
                {list.map((i) => (
                  <tr key={i.id}>
                    <td className="card-title">{i.invoiceNumber}</td>
                    <td data-label="Date">{shortDate(i.issuedDate)}</td>
                    <td data-label="Due">{i.dueDate ? shortDate(i.dueDate) : '—'}</td>
                    <td data-label="Order"><Link to={`/admin/orders/${i.orderId}`}>#{i.orderNumber}</Link></td>
                    <td className="truncate" data-label="Customer">{i.customer ?? ''}</td>
                    <td data-label="Status"><InvoiceStatus value={i.status} /></td>
                    <td className="num" data-label="Total">{i.total.formattedAmount}</td>
                    <td data-label="PDF">
                      <button type="button" className="button secondary small" disabled={pdf.isPending} onClick={() => download(i.id, i.invoiceNumber)}>
                        Download<span className="visually-hidden"> invoice {i.invoiceNumber}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="pager" aria-label="Invoices pages">
            <p className="muted small">{list.length === 0 ? '' : `${offset + 1}–${offset + list.length} of ${page.total}`}</p>
            <div className="actions">
              <button type="button" className="button secondary small" disabled={offset === 0} onClick={() => go({ offset: Math.max(0, offset - INVOICES_PAGE_SIZE) })}>Previous</button>
              <button type="button" className="button secondary small" disabled={offset + list.length >= page.total} onClick={() => go({ offset: offset + INVOICES_PAGE_SIZE })}>Next</button>
            </div>
          </nav>
        </>
      )}
      {owner && <InvoiceSettingsPanel />}
    </>
  );
}
