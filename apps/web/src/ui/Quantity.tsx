import { useId } from 'react';

/** − [n] + with a labelled number input; the buttons say what they change. */
export function Quantity({ value, onChange, label, max = 99, disabled }: { value: number; onChange: (n: number) => void; label: string; max?: number; disabled?: boolean }) {
  const id = useId();
  const set = (n: number) => onChange(Math.max(1, Math.min(max, n)));
  return (
    <div className="quantity">
      <label htmlFor={id} className="visually-hidden">{label}</label>
      <button type="button" onClick={() => set(value - 1)} disabled={disabled || value <= 1} aria-label={`Decrease ${label.toLowerCase()}`}>−</button>
      <input id={id} type="number" inputMode="numeric" min={1} max={max} value={value} disabled={disabled}
        onChange={(e) => { const n = Number(e.target.value); if (Number.isFinite(n) && n >= 1) set(Math.floor(n)); }} />
      <button type="button" onClick={() => set(value + 1)} disabled={disabled || value >= max} aria-label={`Increase ${label.toLowerCase()}`}>+</button>
    </div>
  );
}
