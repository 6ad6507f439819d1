import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ErrorState, Loading } from '../ui/States.js';
import { DaysChart } from './Chart.js';
import { useAdmin } from './context.js';
import { PageHead, shortDate, Status, useMoney } from './ui.js';

const RANGES = [['7', 'Last 7 days'], ['30', 'Last 30 days'], ['90', 'Last 90 days']] as const;

function isoDay(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

export default function DashboardPage() {
  const { api, me } = useAdmin();
  const money = useMoney();
  const [params, setParams] = useSearchParams();
  const range = RANGES.some(([v]) => v === params.get('range')) ? params.get('range')! : '30';
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const now = new Date();
  const to = isoDay(now, timeZone);
  const from = isoDay(new Date(now.getTime() - (Number(range) - 1) * 86_400_000), timeZone);
  const dashboard = useQuery({
    queryKey: ['admin', 'dashboard', from, to, timeZone],
    queryFn: () => api.backOffice.dashboard({ from, to, timeZone }),
  });
  const d = dashboard.data;
  return (
    <>
      <PageHead title="Dashboard" lead={`How ${me.site.name} is doing.`}>
        <label className="inline-label" htmlFor="range">Range</label>
        <select id="range" className="select" value={range} onChange={(e) => setParams({ range: e.target.value }, { replace: true })}>
          {RANGES.map(([v, label]) => <option key={v} value={v}>{label}</option>)}
        </select>
      </PageHead>
      {dashboard.isPending && <Loading label="Loading the figures…" />}
      {dashboard.isError && <ErrorState error={dashboard.error} retry={() => void dashboard.refetch()} />}
      {d && (
        <>
          <section aria-label="Key figures" className="kpis">
            <div className="kpi"><h2>Today</h2><p className="kpi-value" data-testid="today-revenue">{money(d.today.revenue)}</p><p className="muted small">{d.today.orders} {d.today.orders === 1 ? 'order' : 'orders'}</p></div>
            <div className="kpi"><h2>This month</h2><p className="kpi-value">{money(d.thisMonth.revenue)}</p><p className="muted small">{d.thisMonth.orders} {d.thisMonth.orders === 1 ? 'order' : 'orders'}</p></div>
            <div className="kpi"><h2>Average order</h2><p className="kpi-value">{money(d.averageOrderValue)}</p><p className="muted small">over the range</p></div>
            <div className="kpi"><h2>To do</h2><p className="kpi-value"><Link to="/admin/orders?payment=NOT_PAID">{d.unpaidCount} unpaid</Link></p><p className="small"><Link to="/admin/orders?fulfillment=NOT_FULFILLED">{d.unfulfilledCount} to fulfil</Link></p></div>
          </section>
          <section className="panel" aria-labelledby="chart-heading">
            <h2 id="chart-heading">Orders and revenue per day</h2>
            <DaysChart days={d.days} money={money} />
          </section>
          <div className="two-col">
            <section className="panel" aria-labelledby="recent-heading">
              <h2 id="recent-heading">Recent orders</h2>
              {d.recentOrders.length === 0 ? <p className="muted">No orders yet.</p> : (
                <div className="table-wrap">
                  <table className="table cards">
                    <thead><tr><th scope="col">Order</th><th scope="col">Buyer</th><th scope="col">Payment</th><th scope="col" className="num">Total</th></tr></thead>
                    <tbody>
                      {d.recentOrders.map((o) => (
                        <tr key={o.id}>
                          <td className="card-title"><Link to={`/admin/orders/${o.id}`}>#{o.number}</Link><span className="block muted small">{shortDate(o.createdDate)}</span></td>
                          <td className="truncate" data-label="Buyer">{o.buyerEmail}</td>
                          <td data-label="Status"><span><Status value={o.paymentStatus} /> <Status value={o.fulfillmentStatus} /></span></td>
                          <td className="num" data-label="Total">{money(o.total)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
            <section className="panel" aria-labelledby="stock-heading">
              <h2 id="stock-heading">Low stock</h2>
              {d.lowStock.length === 0 ? <p className="muted">Nothing is running low.</p> : (
                <ul className="plain-list" role="list">
                  {d.lowStock.map((s) => (
                    <li key={`${s.productId}-${s.variantId ?? ''}`}><Link to={`/admin/products/${s.productId}`}>{s.name}</Link> <span className={s.quantity === 0 ? 'status status-bad' : 'status status-warn'}>{s.quantity} left</span></li>
                  ))}
                </ul>
              )}
            </section>
          </div>
        </>
      )}
    </>
  );
}
