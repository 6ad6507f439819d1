// Calendar days in a time zone, for the dashboard. Pure: the clock is passed in.
import { ApiError } from '../../platform/errors.js';
import { DASHBOARD_MAX_DAYS } from '../../platform/field-limits.js';

export const MAX_DASHBOARD_DAYS = DASHBOARD_MAX_DAYS;
const DAY_MS = 86_400_000;

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The calendar date (YYYY-MM-DD) an instant falls on in `timeZone`. */
export function dateIn(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

function validDate(date: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);
}

export interface DashboardRange {
  from: string;
  to: string;
  timeZone: string;
  today: string;
  monthStart: string;
}

/** Reads the dashboard's query: defaults to the last 30 days up to today in the time zone. */
export function dashboardRange(input: { from?: string; to?: string; timeZone?: string }, now: Date): DashboardRange {
  const timeZone = input.timeZone ?? 'UTC';
  const violations = [];
  if (!isTimeZone(timeZone)) violations.push({ field: 'timeZone', rule: 'FORMAT' as const, description: `"${timeZone}" is not an IANA time zone` });
  if (input.from !== undefined && !validDate(input.from)) violations.push({ field: 'from', rule: 'FORMAT' as const, description: 'a date like 2026-01-31' });
  if (input.to !== undefined && !validDate(input.to)) violations.push({ field: 'to', rule: 'FORMAT' as const, description: 'a date like 2026-01-31' });
  if (violations.length) throw ApiError.validation(violations);
  const today = dateIn(now, timeZone);
  const to = input.to ?? today;
  const from = input.from ?? addDays(to, -29);
  if (daysBetween(from, to) < 0) throw ApiError.validation([{ field: 'from', rule: 'VALIDATION', description: 'must not be after to' }]);
  if (daysBetween(from, to) >= MAX_DASHBOARD_DAYS) throw ApiError.validation([{ field: 'from', rule: 'VALIDATION', description: `at most ${MAX_DASHBOARD_DAYS} days` }]);
  return { from, to, timeZone, today, monthStart: `${today.slice(0, 8)}01` };
}
