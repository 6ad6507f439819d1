import { useSyncExternalStore } from 'react';
import type { DayFigures } from '@bodega/sdk';
import { toMinor } from './money.js';

const NARROW = '(max-width: 520px)';
/** On a phone the chart is drawn on a narrower canvas, so its labels stay readable when scaled. */
function useNarrow(): boolean {
  return useSyncExternalStore(
    (change) => {
      const query = window.matchMedia(NARROW);
      query.addEventListener('change', change);
      return () => query.removeEventListener('change', change);
    },
    () => window.matchMedia(NARROW).matches,
    () => false,
  );
}

/**
 * Orders and revenue per day as an SVG bar chart (revenue bars, order counts as dots). The same
 * figures are in a table for screen readers and for anyone who prefers numbers. A range without
 * orders says so in words instead of drawing empty space.
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
  const pad = { top: 12, right: 12, bottom: 28, left: 12 };
  // Bar heights from minor units (bigint), so no amount is ever a float; only the pixel ratio is.
  const revenue = days.map((d) => toMinor(d.revenue, currency) ?? 0n);
  const maxRevenue = revenue.reduce((max, r) => (r > max ? r : max), 1n);
  const maxOrders = Math.max(1, ...days.map((d) => d.orders));
  const step = (width - pad.left - pad.right) / Math.max(1, days.length);
  const bar = Math.max(1, step * 0.7);
  const plot = height - pad.top - pad.bottom;
  const labelEvery = Math.ceil(days.length / (narrow ? 4 : 8));
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="chart-title">
        <title id="chart-title">{`Revenue and orders per day, ${days[0]?.date ?? ''} to ${days.at(-1)?.date ?? ''}`}</title>
        <line x1={pad.left} x2={width - pad.right} y1={height - pad.bottom} y2={height - pad.bottom} className="chart-axis" />
        {days.map((d, i) => {
          const x = pad.left + i * step + (step - bar) / 2;
          const h = (Number((revenue[i] * 10_000n) / maxRevenue) / 10_000) * plot;
          const cy = height - pad.bottom - (d.orders / maxOrders) * plot;
          return (
            <g key={d.date}>
              <rect x={x} y={height - pad.bottom - h} width={bar} height={h} rx={bar > 4 ? 2 : 0} className="chart-bar"><title>{`${d.date}: ${money(d.revenue)}, ${d.orders} ${d.orders === 1 ? 'order' : 'orders'}`}</title></rect>
              {d.orders > 0 && <circle cx={x + bar / 2} cy={cy} r={days.length > 120 || (narrow && days.length > 45) ? 2 : 3.5} className="chart-dot" />}
              {i % labelEvery === 0 && <text x={x + bar / 2} y={height - 8} textAnchor="middle" className="chart-label">{d.date.slice(5)}</text>}
            </g>
          );
        })}
      </svg>
      <figcaption className="chart-legend small"><span className="key key-bar" aria-hidden="true" /> Revenue <span className="key key-dot" aria-hidden="true" /> Orders</figcaption>
      <details className="chart-table">
        <summary>Show the figures as a table</summary>
        <table className="table">
          <thead><tr><th scope="col">Day</th><th scope="col" className="num">Orders</th><th scope="col" className="num">Revenue</th></tr></thead>
          <tbody>{days.map((d) => <tr key={d.date}><td>{d.date}</td><td className="num">{d.orders}</td><td className="num">{money(d.revenue)}</td></tr>)}</tbody>
        </table>
      </details>
    </figure>
  );
}

/** `2026-03-01` → `Mar 1, 2026`, read as a calendar date (no time zone shift). */
export function longDate(date: string | undefined): string {
  if (!date) return '';
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : d.toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' });
}
