import type { Readable } from 'node:stream';
import { Type, type TUnsafe } from 'typebox';

/**
 * Helpers for response schemas (the `*-schemas.ts` modules next to the routes). A schema with a
 * `title` becomes a named type in the SDK's generated types (npm run gen:sdk-types); untitled
 * objects are written inline.
 */

/** A string from a fixed set: one `enum` keyword, which fast-json-stringify writes as a plain string. */
export function oneOf<T extends string>(values: readonly T[], annotations: { title?: string; description?: string } = {}): TUnsafe<T> {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...annotations });
}

/** A timestamp as the wire writes it (`Date.toISOString()`). */
export const Timestamp = Type.String({ format: 'date-time' });

/** A decimal amount as a string (money in the wire's form: "12.50"). */
export const Decimal = Type.String();

/** An integer or null, as one `type` list (fast-json-stringify writes it without trying each branch). */
export const IntegerOrNull = Type.Unsafe<number | null>({ type: ['integer', 'null'] });

/** The response of a call answering a CSV file (streamed, so nothing is serialised through it). */
export const CsvFile = { content: { 'text/csv': { schema: Type.Unsafe<string | Readable>({ type: 'string', description: 'CSV with a header row' }) } } };

/** A timestamp a handler may return as a `Date` (written as `toISOString()` gives it). */
export const DateTimestamp = Type.Unsafe<string | Date>({ type: 'string', format: 'date-time' });
