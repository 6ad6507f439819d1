import type { DayFigures } from '@bodega/sdk';

/**
 * Orders and revenue per day as an SVG bar chart (revenue bars, order counts as dots). The same
 * figures are in a table for screen readers and for anyone who prefers numbers.
 */
export function DaysChart({ days, money }: { days: DayFigures[]; money: (v: string) => string }) {
  const width = 720;
  const height = 220;
  const pad = { top: 12, right: 12, bottom: 28, left: 12 };
  const maxRevenue = Math.max(1, ...days.map((d) => Number(d.revenue)));
  const maxOrders = Math.max(1, ...days.map((d) => d.orders));
  const step = (width - pad.left - pad.right) / Math.max(1, days.length);
  const bar = Math.max(2, step * 0.7);
  const plot = height - pad.top - pad.bottom;
  const labelEvery = Math.ceil(days.length / 8);
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="chart-title">
        <title id="chart-title">{`Revenue and orders per day, ${days[0]?.date ?? ''} to ${days.at(-1)?.date ?? ''}`}</title>
        <line x1={pad.left} x2={width - pad.right} y1={height - pad.bottom} y2={height - pad.bottom} className="chart-axis" />
        {days.map((d, i) => {
          const x = pad.left + i * step + (step - bar) / 2;
          const h = (Number(d.revenue) / maxRevenue) * plot;
          const cy = height - pad.bottom - (d.orders / maxOrders) * plot;
          return (
            <g key={d.date}>
              <rect x={x} y={height - pad.bottom - h} width={bar} height={h} rx={2} className="chart-bar"><title>{`${d.date}: ${money(d.revenue)}, ${d.orders} orders`}</title></rect>
              {d.orders > 0 && <circle cx={x + bar / 2} cy={cy} r={3.5} className="chart-dot" />}
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
