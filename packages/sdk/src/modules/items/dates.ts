/** Data items carry dates as `{"$date": "<ISO>"}` both ways (wire-surface §5.3). */
import { isPlainObject } from '../../core/query-string.js';

export function encodeDates(value: unknown): unknown {
  if (value instanceof Date) return { $date: value.toISOString() };
  if (Array.isArray(value)) return value.map(encodeDates);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) out[key] = encodeDates(entry);
  return out;
}

export function decodeDates(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeDates);
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === '$date' && typeof value.$date === 'string') return new Date(value.$date);
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) out[key] = decodeDates(entry);
  return out;
}
