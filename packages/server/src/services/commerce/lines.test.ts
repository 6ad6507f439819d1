import { describe, expect, it } from 'vitest';
import { mergeLines } from './lines.js';

const line = (id: string, key: string | null, quantity: number) => ({ id, key, quantity });

describe('mergeLines (how carts and checkouts take added lines)', () => {
  it.each([
    ['adds the quantity of an item already there', [line('a', 'k1', 2)], [line('b', 'k1', 3)], [line('a', 'k1', 5)]],
    ['appends a new item after the lines there', [line('a', 'k1', 1)], [line('b', 'k2', 1)], [line('a', 'k1', 1), line('b', 'k2', 1)]],
    ['sums the same item asked twice in one add into its first line', [], [line('a', 'k1', 1), line('b', 'k1', 4)], [line('a', 'k1', 5)]],
    ['never merges custom lines (they have no key)', [line('a', null, 1)], [line('b', null, 1)], [line('a', null, 1), line('b', null, 1)]],
    ['keeps lines already there apart even when they share a key', [line('a', 'k1', 1), line('b', 'k1', 1)], [line('c', 'k1', 2)], [line('a', 'k1', 3), line('b', 'k1', 1)]],
  ])('%s', (_name, lines, added, expected) => {
    expect(mergeLines(lines, added)).toEqual(expected);
  });

  it('changes neither input', () => {
    const lines = [line('a', 'k1', 1)];
    const added = [line('b', 'k1', 2)];
    mergeLines(lines, added);
    expect(lines).toEqual([line('a', 'k1', 1)]);
    expect(added).toEqual([line('b', 'k1', 2)]);
  });
});
