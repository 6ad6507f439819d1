// Spreadsheet formula injection (OWASP "CSV Injection"): a cell that begins with `=`, `+`, `-`,
// `@`, a tab or a carriage return is run as a formula when the file is opened. Every export
// prefixes such a cell with `'`, and the import takes that one `'` off again, so a round trip is
// exact. A plain number (`-5`, `-0.25`) is left alone: a spreadsheet reads it as the number it is,
// and no formula fits in it. A value that itself begins with `'` before a formula character gets
// one more `'`, so the import's single strip gives it back unchanged.
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { stringify } from 'csv-stringify/sync';

const FORMULA = /^'*[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-\d+(\.\d+)?$/;

/** The cell as an export writes it. */
export function neutraliseCell(text: string): string {
  return FORMULA.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** The cell as the import reads it: the export's `'` taken off again. */
export function restoreCell(text: string): string {
  return text.startsWith("'") && FORMULA.test(text.slice(1)) ? text.slice(1) : text;
}

/** Rows of cells, each neutralised. */
export function neutraliseRows(rows: readonly (readonly string[])[]): string[][] {
  return rows.map((row) => row.map(neutraliseCell));
}

/**
 * The failed rows of an import (products, data items, orders) as CSV: `row`, `error`, then the
 * row's own columns as they came (the union of the first batch's; a nested value as JSON).
 */
export async function* failuresCsv(batches: AsyncIterable<{ row: number; error: string; data: Record<string, unknown> }[]>): AsyncGenerator<string> {
  let columns: string[] | undefined;
  for await (const batch of batches) {
    if (!columns) {
      columns = [...new Set(batch.flatMap((f) => Object.keys(f.data)))];
      yield stringify(neutraliseRows([['row', 'error', ...columns]]));
    }
    const cols = columns;
    yield stringify(neutraliseRows(batch.map((f) => [String(f.row), f.error, ...cols.map((c) => cell(f.data[c]))])));
  }
  if (!columns) yield stringify([['row', 'error']]);
}

function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Streams a CSV download: an attachment under the file name, never cached. */
export function sendCsv(reply: FastifyReply, fileName: string, chunks: AsyncIterable<string>): FastifyReply {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(chunks));
}
