import { useState } from 'react';
import { Link, useSearchParams } from '../../router/Router.js';
import type { OrdersExportFilters } from '@bodega/sdk';
import { ErrorState, Loading } from '../../ui/States.js';
import { useCsvExport } from '../queries.js';
import { SearchForm } from '../SearchForm.js';
import { PageHead, saveFile, shortDate, Status, useMoney, useResult } from '../ui.js';
import { ORDERS_PAGE_SIZE, useOrders } from './queries.js';

export default function OrdersPage() {
  const money = useMoney();
  const [params, setParams] = useSearchParams();
  const filters: OrdersExportFilters = {
    paymentStatus: params.get('payment') ?? undefined,
    fulfillmentStatus: params.get('fulfillment') ?? undefined,
    from: params.get('from') ?? undefined,
    to: params.get('to') ?? undefined,
    q: params.get('q') ?? undefined,
  };
  const key = params.toString();
  // Cursor paging: the cursors of the pages before this one, reset when the filters change.
  const [pages, setPages] = useState<{ key: string; cursors: string[] }>({ key, cursors: [] });
  const cursors = pages.key === key ? pages.cursors : [];
  const cursor = cursors.at(-1);
  const orders = useOrders(filters, cursor);
  const exporting = useResult();
  const csv = useCsvExport();

  function set(name: string, value: string) {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  }
  function exportCsv() {
    exporting.clear();
    csv.mutate({ kind: 'orders', filters }, {
      onSuccess: (blob) => { saveFile('orders.csv', blob); exporting.ok('orders.csv is downloaded.'); },
      onError: (error) => exporting.fail(error),
    });
  }

  const list = orders.data?.orders ?? [];
  const offset = cursors.length * ORDERS_PAGE_SIZE;
  return (
    <>
      <PageHead title="Orders">
        <Link className="button" to="/admin/orders/new">New order</Link>
        <button type="button" className="button secondary" onClick={exportCsv} disabled={csv.isPending}>{csv.isPending ? 'Exporting…' : 'Export CSV'}</button>
      </PageHead>
      {exporting.view}
      <div className="filters-bar order-filters" role="search" aria-label="Filter orders">
        <SearchForm id="order-q" label="Number or e-mail" value={filters.q ?? ''} onSearch={(q) => set('q', q)} />
        <div className="filter">
          <label htmlFor="order-payment">Payment</label>
          <select id="order-payment" value={filters.paymentStatus ?? ''} onChange={(e) => set('payment', e.target.value)}>
            <option value="">Any</option><option value="NOT_PAID">Unpaid</option><option value="PAID">Paid</option>
            <option value="PARTIALLY_REFUNDED">Partly refunded</option><option value="FULLY_REFUNDED">Refunded</option><option value="CANCELED">Canceled</option>
          </select>
        </div>
        <div className="filter">
          <label htmlFor="order-fulfillment">Fulfilment</label>
          <select id="order-fulfillment" value={filters.fulfillmentStatus ?? ''} onChange={(e) => set('fulfillment', e.target.value)}>
            <option value="">Any</option><option value="NOT_FULFILLED">Unfulfilled</option><option value="PARTIALLY_FULFILLED">Partly fulfilled</option><option value="FULFILLED">Fulfilled</option>
          </select>
        </div>
        <div className="filter">
          <label htmlFor="order-from">From</label>
          <input id="order-from" type="date" value={filters.from ?? ''} onChange={(e) => set('from', e.target.value)} />
        </div>
        <div className="filter">
          <label htmlFor="order-to">To</label>
          <input id="order-to" type="date" value={filters.to ?? ''} onChange={(e) => set('to', e.target.value)} />
        </div>
      </div>
      {orders.isPending && <Loading label="Loading orders…" />}
      {orders.isError && <ErrorState error={orders.error} retry={() => void orders.refetch()} />}
      {orders.data && (
        <>
          <div className="table-wrap" aria-busy={orders.isFetching}>
            <table className="table cards">
              <caption className="visually-hidden">Orders, newest first</caption>
              <thead><tr><th scope="col">Order</th><th scope="col">Date</th><th scope="col">Buyer</th><th scope="col">Payment</th><th scope="col">Fulfilment</th><th scope="col" className="num">Total</th></tr></thead>
              <tbody>
                {list.length === 0 && <tr><td colSpan={6} className="muted">No orders match.</td></tr>}
                {list.map((o) => (
                  <tr key={o._id}>
                    <td className="card-title"><Link to={`/admin/orders/${o._id}`}>#{o.number}</Link></td>
                    <td data-label="Date">{shortDate(o._createdDate)}</td>
                    <td className="truncate" data-label="Buyer">{o.buyerInfo?.email ?? ''}</td>
                    <td data-label="Payment"><Status value={o.paymentStatus} /></td>
                    <td data-label="Fulfilment"><Status value={o.fulfillmentStatus} /></td>
                    <td className="num" data-label="Total">{money(o.priceSummary?.total?.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="pager" aria-label="Orders pages">
            <p className="muted small">{list.length === 0 ? '' : `${offset + 1}–${offset + list.length}`}</p>
            <div className="actions">
              <button type="button" className="button secondary small" disabled={cursors.length === 0} onClick={() => setPages({ key, cursors: cursors.slice(0, -1) })}>Previous</button>
              <button type="button" className="button secondary small" disabled={!orders.data.metadata?.hasNext}
                onClick={() => setPages({ key, cursors: [...cursors, orders.data.metadata?.cursors?.next ?? ''] })}>Next</button>
            </div>
          </nav>
        </>
      )}
    </>
  );
}
