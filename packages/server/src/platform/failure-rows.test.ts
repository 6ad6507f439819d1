import { describe, expect, it } from 'vitest';
import { cellsOf, rowBatches, storedCells } from './failure-rows.js';

async function all<T>(batches: AsyncGenerator<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const batch of batches) out.push(batch);
  return out;
}

describe('stored failure rows', () => {
  it('keeps the column order of a row through storing and reading', () => {
    const row = { zeta: '1', alpha: '2', mid: '' };
    expect(JSON.stringify(cellsOf(JSON.parse(JSON.stringify(storedCells(row)))))).toBe(JSON.stringify(row));
  });

  it('reads every row once, a batch at a time after the last row number, and stops on a short batch', async () => {
    for (const count of [0, 4, 5]) {
      const numbers = Array.from({ length: count }, (_, i) => i + 1);
      const asked: number[] = [];
      const read = async (after: number, batch: number) => {
        asked.push(after);
        return numbers.filter((n) => n > after).slice(0, batch).map((n) => ({ row_number: n }));
      };
      const batches = await all(rowBatches(read, (r) => r.row_number, 2));
      expect(batches.flat(), `${count} rows`).toEqual(numbers);
      expect(batches.every((b) => b.length > 0 && b.length <= 2)).toBe(true);
      expect(asked).toEqual(count === 0 ? [0] : [0, 2, 4]);
    }
  });
});
