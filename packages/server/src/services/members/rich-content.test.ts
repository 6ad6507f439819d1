import { describe, expect, it } from 'vitest';
import { checkRichContent } from './rich-content.js';

const paragraph = (text: string) => ({ type: 'PARAGRAPH', id: 'p1', nodes: [{ type: 'TEXT', id: 't1', nodes: [], textData: { text, decorations: [] } }] });

describe('about documents', () => {
  it('takes a rich-content document', () => {
    expect(checkRichContent({ nodes: [paragraph('Hi')], metadata: { version: 1 } })).toEqual([]);
    expect(checkRichContent({ nodes: [] })).toEqual([]);
  });
  it.each([
    ['no document', 'text', 'REQUIRED_FIELD'],
    ['no nodes', {}, 'REQUIRED_FIELD'],
    ['an unknown top-level key', { nodes: [], script: 'x' }, 'FIELD_NOT_ALLOWED'],
    ['a node without a type', { nodes: [{ id: 'x' }] }, 'FORMAT'],
    ['a lower-case type', { nodes: [{ type: 'paragraph' }] }, 'FORMAT'],
    ['nodes that are not a list', { nodes: [{ type: 'PARAGRAPH', nodes: {} }] }, 'VALIDATION'],
    ['a script link', { nodes: [{ type: 'TEXT', textData: { decorations: [{ linkData: { link: { url: ' JavaScript:alert(1)' } } }] } }] }, 'FORMAT'],
    ['too many nodes', { nodes: Array.from({ length: 5001 }, () => ({ type: 'DIVIDER' })) }, 'MAX_SIZE'],
  ])('refuses %s', (_name, content, rule) => {
    expect(checkRichContent(content).map((v) => v.rule)).toContain(rule);
  });
  it('refuses nesting deeper than 30', () => {
    let node: Record<string, unknown> = { type: 'TEXT' };
    for (let i = 0; i < 31; i++) node = { type: 'LIST_ITEM', nodes: [node] };
    expect(checkRichContent({ nodes: [node] }).map((v) => v.rule)).toContain('MAX');
  });
});
