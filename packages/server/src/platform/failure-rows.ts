// The refused rows an import keeps for its failures file (the back office's product and data item
// imports in import_job_failures, the order import in order_import_failures): one way to store a
// row's cells and one way to read them back a batch at a time, in the file's order.

/** A refused row's cells as stored: [column, value] pairs, since a jsonb object would not keep the file's column order. */
export type StoredCells = [string, unknown][];

export function storedCells(data: Record<string, unknown>): StoredCells {
  return Object.entries(data);
}

export function cellsOf(stored: StoredCells): Record<string, unknown> {
  return Object.fromEntries(stored);
}

/**
 * Every row `read` gives, a batch at a time, by row number: `read(after, batch)` answers up to
 * `batch` rows numbered above `after`, in order (keyset paging, so a long file is never one query).
 */
export async function* rowBatches<R extends { row_number: number }, T>(
  read: (after: number, batch: number) => Promise<R[]>, map: (row: R) => T, batch: number,
): AsyncGenerator<T[]> {
  let after = 0;
  for (;;) {
    const rows = await read(after, batch);
    if (rows.length) yield rows.map(map);
    if (rows.length < batch) return;
    after = rows[rows.length - 1].row_number;
  }
}
