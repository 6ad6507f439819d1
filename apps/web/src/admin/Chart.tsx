import { useSyncExternalStore } from 'react';
import type { DayFigures } from '@bodega/sdk';
import { currencyExponent, fromMinor, toMinor } from '../ui/money.js';
import { longDate } from './ui.js';

const NARROW = '(max-width: 520px)';
/** On a phone the chart is drawn on a narrower canvas, so its labels stay readable when scaled. */
function subscribeNarrow(change: () => void): () => void {
  const query = window.matchMedia(NARROW);
  query.addEventListener('change', change);
  return () => query.removeEventListener('change', change);
}
const isNarrow = () => window.matchMedia(NARROW).matches;
const notNarrow = () => false;
function useNarrow(): boolean {
  return useSyncExternalStore(subscribeNarrow, isNarrow, notNarrow);
}

/**
 * Round steps for an axis from 0 to at least `max`: 1, 2 or 5 × a power of ten, at least `least`
 * (one whole currency unit for money, one order for counts), at most about four intervals.
 * Integers only (bigint minor units), so no amount is ever a float.
 */
export function axisTicks(max: bigint, least: bigint): bigint[] {
  let step = least;
  for (let power = least; ; power *= 10n) {
    const found = [1n, 2n, 5n].map((m) => m * power).find((s) => s * 4n >= max);
    if (found) { step = found; break; }
  }
  const top = max <= 0n ? step : ((max + step - 1n) / step) * step;
  const ticks: bigint[] = [];
  for (let t = 0n; t <= top; t += step) ticks.push(t);
  return ticks;
}

/** An axis label: whole units without cents, thousands shortened ("$1.5K"). */
function tickLabel(minor: bigint, currency: string): string {
  const amount = fromMinor(minor, currency);
  const major = minor / 10n ** BigInt(currencyExponent(currency));
  const format = new Intl.NumberFormat('en-US', {
    style: 'currency', currency, maximumFractionDigits: major >= 10_000n ? 1 : 0, minimumFractionDigits: 0,
    ...(major >= 10_000n ? { notation: 'compact' as const } : {}),
  });
  // Intl reads the decimal string exactly (ES2023); fromMinor always gives a plain decimal.
  return format.format(amount as `${number}`);
}

/**
 * Net sales per day as an SVG bar chart with a money scale on the left, order counts as dots with
 * their scale on the right. The same figures (gross, refunds, net, orders) are in a table for
 * screen readers and for anyone who prefers numbers. A range without orders says so in words
 * instead of drawing empty space.
 */
export function DaysChart({ days, money, currency }: { days: DayFigures[]; money: (v: string) => string; currency: string }) {
  const narrow = useNarrow();
  if (days.every((d) => d.orders === 0)) {
    return (
      <p className="chart-empty" data-testid="chart-empty">
        No orders from {longDate(days[0]?.date)} to {longDate(days.at(-1)?.date)}. Pick another range to see sales.
      </p>
    );
  }
  const width = narrow ? 360 : 720;
  const height = narrow ? 200 : 220;
  // Bar heights from minor units (bigint), so no amount is ever a float; only the pixel ratio is.
  const net = days.map((d) => toMinor(d.net, currency) ?? 0n);
  const moneyTicks = axisTicks(net.reduce((max, r) => (r > max ? r : max), 0n), 10n ** BigInt(currencyExponent(currency)));
  const moneyTop = moneyTicks.at(-1) ?? 1n;
  const orderTicks = axisTicks(BigInt(Math.max(0, ...days.map((d) => d.orders))), 1n).map(Number);
  const ordersTop = orderTicks.at(-1) ?? 1;
  const labels = moneyTicks.map((t) => tickLabel(t, currency));
  const charWidth = narrow ? 6 : 6.5;
  const pad = {
    top: 12, bottom: 28,
    left: 10 + Math.max(...labels.map((l) => l.length)) * charWidth,
    right: 10 + String(ordersTop).length * charWidth,
  };
  const step = (width - pad.left - pad.right) / Math.max(1, days.length);
  const bar = Math.max(1, step * 0.7);
  const plot = height - pad.top - pad.bottom;
  const base = height - pad.bottom;
  const labelEvery = Math.ceil(days.length / (narrow ? 4 : 8));
  const yMoney = (minor: bigint) => base - (Number((minor * 10_000n) / moneyTop) / 10_000) * plot;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="chart-title">
        <title id="chart-title">{`Net sales and orders per day, ${days[0]?.date ?? ''} to ${days.at(-1)?.date ?? ''}; the figures are in the table below`}</title>
        {moneyTicks.map((t, i) => (
          <g key={`m${t}`}>
            {i > 0 && <line x1={pad.left} x2={width - pad.right} y1={yMoney(t)} y2={yMoney(t)} className="chart-grid" />}
            <text x={pad.left - 6} y={yMoney(t) + 4} textAnchor="end" className="chart-label">{labels[i]}</text>
          </g>
        ))}
        {orderTicks.map((t) => (
          <text key={`o${t}`} x={width - pad.right + 6} y={base - (t / ordersTop) * plot + 4} textAnchor="start" className="chart-label chart-label-orders">{t}</text>
        ))}
        <line x1={pad.left} x2={width - pad.right} y1={base} y2={base} className="chart-axis" />
        {days.map((d, i) => {
          const x = pad.left + i * step + (step - bar) / 2;
          const h = base - yMoney(net[i]);
          const cy = base - (d.orders / ordersTop) * plot;
          return (
            <g key={d.date}>
              <rect x={x} y={base - h} width={bar} height={h} rx={bar > 4 ? 2 : 0} className="chart-bar"><title>{`${d.date}: ${money(d.net)} net, ${d.orders} ${d.orders === 1 ? 'order' : 'orders'}`}</title></rect>
              {d.orders > 0 && <circle cx={x + bar / 2} cy={cy} r={days.length > 120 || (narrow && days.length > 45) ? 2 : 3.5} className="chart-dot" />}
              {i % labelEvery === 0 && <text x={x + bar / 2} y={height - 8} textAnchor="middle" className="chart-label">{d.date.slice(5)}</text>}
            </g>
          );
        })}
      </svg>
      <figcaption className="chart-legend small"><span className="key key-bar" aria-hidden="true" /> Net sales (left scale) <span className="key key-dot" aria-hidden="true" /> Orders (right scale)</figcaption>
      <details className="chart-table">
        <summary>Show the figures as a table</summary>
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Figures per day">
          <table className="table">
            <thead><tr><th scope="col">Day</th><th scope="col" className="num">Orders</th><th scope="col" className="num">Gross sales</th><th scope="col" className="num">Refunds</th><th scope="col" className="num">Net sales</th></tr></thead>
            <tbody>{days.map((d) => <tr key={d.date}><td>{d.date}</td><td className="num">{d.orders}</td><td className="num">{money(d.revenue)}</td><td className="num">{money(d.refunds)}</td><td className="num">{money(d.net)}</td></tr>)}</tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
