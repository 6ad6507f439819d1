import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Link, useSearchParams } from '../router/Router.js';
import { DASHBOARD_MAX_DAYS as MAX_DAYS, type SalesFigures } from '@bodega/sdk';
import { Field } from '../ui/Field.js';
import { isPositiveAmount } from '../ui/money.js';
import { ErrorState, Loading } from '../ui/States.js';
import { DaysChart } from './Chart.js';
import { useAdmin } from './context.js';
import { useDashboard } from './queries.js';
import { longDate, PageHead, shortDate, Status, useMoney } from './ui.js';

const PRESETS = [['7', 'Last 7 days'], ['30', 'Last 30 days'], ['90', 'Last 90 days']] as const;
const DAY_MS = 86_400_000;

function isoDay(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

function dayNumber(date: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date ? undefined : ms / DAY_MS;
}

/** What is wrong with a custom range, per field, in words; empty when it can be asked for. */
export function rangeErrors(from: string, to: string): { from?: string; to?: string } {
  const a = dayNumber(from);
  const b = dayNumber(to);
  if (a === undefined) return { from: 'Choose the first day.' };
  if (b === undefined) return { to: 'Choose the last day.' };
  if (a > b) return { to: 'The last day cannot be before the first.' };
  if (b - a + 1 > MAX_DAYS) return { to: `At most ${MAX_DAYS} days at once.` };
  return {};
}

export default function DashboardPage() {
  const { me, currency } = useAdmin();
  const money = useMoney();
  const [params, setParams] = useSearchParams();
  const custom = params.get('range') === 'custom';
  const preset = PRESETS.find(([v]) => v === params.get('range'))?.[0] ?? '30';
  // Days are counted in the browser's time zone, which the server is told.
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const now = new Date();
  const today = isoDay(now, timeZone);
  const from = custom ? params.get('from') ?? '' : isoDay(new Date(now.getTime() - (Number(preset) - 1) * DAY_MS), timeZone);
  const to = custom ? params.get('to') ?? '' : today;
  const invalid = custom && Object.keys(rangeErrors(from, to)).length > 0;
  const dashboard = useDashboard({ from, to, timeZone }, !invalid);
  const d = dashboard.data;
  const choose = (value: string) => {
    if (value === 'custom') setParams({ range: 'custom', from, to }, { replace: true });
    else setParams({ range: value }, { replace: true });
  };
  return (
    <>
      <PageHead title="Dashboard" lead={`How ${me.site.name} is doing.`}>
        <label className="inline-label" htmlFor="range">Range</label>
        <select id="range" className="select" value={custom ? 'custom' : preset} onChange={(e) => choose(e.target.value)}>
          {PRESETS.map(([v, label]) => <option key={v} value={v}>{label}</option>)}
          <option value="custom">Custom range</option>
        </select>
      </PageHead>
      {custom && <CustomRange key={`${from}/${to}`} from={from} to={to} max={today} onApply={(f, t) => setParams({ range: 'custom', from: f, to: t }, { replace: true })} />}
      {!invalid && dashboard.isPending && <Loading label="Loading the figures…" />}
      {dashboard.isError && <ErrorState error={dashboard.error} retry={() => void dashboard.refetch()} />}
      {d && !invalid && (
        <>
          <section aria-label="Key figures" className="kpis">
            <SalesKpi title="Net sales today" figures={d.today} money={money} testId="today-revenue" />
            <SalesKpi title="Net sales this month" figures={d.thisMonth} money={money} testId="month-revenue" />
            <div className="kpi"><h2>Average order</h2><p className="kpi-value">{money(d.averageOrderValue)}</p><p className="muted small">gross, over the range</p></div>
            <div className="kpi"><h2>To do</h2><p className="kpi-value"><Link to="/admin/orders?payment=NOT_PAID">{d.unpaidCount} unpaid</Link></p><p className="small"><Link to="/admin/orders?fulfillment=NOT_FULFILLED">{d.unfulfilledCount} to fulfil</Link></p></div>
          </section>
          <section className="panel" aria-labelledby="chart-heading">
            <h2 id="chart-heading">Net sales and orders per day</h2>
            <p className="muted small" data-testid="range-summary">
              {longDate(d.range.from)} – {longDate(d.range.to)}: {d.range.orders} {d.range.orders === 1 ? 'order' : 'orders'}, {money(d.range.net)} net sales ({money(d.range.revenue)} gross − {money(d.range.refunds)} refunds; {d.range.timeZone.replace(/_/g, ' ')} time)
            </p>
            <DaysChart days={d.days} money={money} currency={currency} />
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
                          <td className="card-title"><Link to={`/admin/orders/${o.id}`}>#{o.number}</Link><span className="block muted small nowrap">{shortDate(o.createdDate)}</span></td>
                          <td className="truncate" data-label="Buyer" title={o.buyerEmail}>{o.buyerEmail}</td>
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

/**
 * Net sales (what the shop keeps) as the figure, with the orders and, when something was refunded,
 * gross sales and refunds under it, as a merchant reads a sales report.
 */
function SalesKpi({ title, figures, money, testId }: { title: string; figures: SalesFigures; money: (v: string) => string; testId: string }) {
  const refunded = isPositiveAmount(figures.refunds);
  return (
    <div className="kpi">
      <h2>{title}</h2>
      <p className="kpi-value" data-testid={testId}>{money(figures.net)}</p>
      <p className="muted small">{figures.orders} {figures.orders === 1 ? 'order' : 'orders'}{refunded ? '' : ', no refunds'}</p>
      {refunded && <p className="muted small" data-testid={`${testId}-refunds`}>{money(figures.revenue)} gross − {money(figures.refunds)} refunds</p>}
    </div>
  );
}

/** The custom range's form: both days, checked as the server will (`rangeErrors`). */
const rangeSchema = z.object({ from: z.string(), to: z.string() }).superRefine((range, ctx) => {
  for (const [field, message] of Object.entries(rangeErrors(range.from, range.to))) ctx.addIssue({ code: 'custom', path: [field], message });
});
type Range = z.infer<typeof rangeSchema>;

/** Two dates and a button; the range is only asked for once it is one the server accepts. */
function CustomRange({ from, to, max, onApply }: { from: string; to: string; max: string; onApply: (from: string, to: string) => void }) {
  const { register, handleSubmit, trigger, formState: { errors } } = useForm<Range>({ resolver: zodResolver(rangeSchema), defaultValues: { from, to } });
  // A range from the address that cannot be asked for says why at once.
  useEffect(() => { if (from || to) void trigger(); }, []);
  return (
    <form className="panel range-form" onSubmit={(e) => void handleSubmit((range) => onApply(range.from, range.to))(e)} noValidate aria-label="Custom range">
      <Field label="From" type="date" max={max} {...register('from')} error={errors.from?.message} />
      <Field label="To" type="date" max={max} {...register('to')} error={errors.to?.message} />
      <div className="actions"><button type="submit" className="button">Show</button></div>
      <p className="muted small range-hint">Up to {MAX_DAYS} days, counted in your time zone.</p>
    </form>
  );
}
