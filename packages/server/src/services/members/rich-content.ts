/**
 * A member's "about" document: the rich-content shape of `@wix/members` membersAbout
 * (`{nodes:[{type, id, nodes, …Data}], metadata, documentStyle}`), checked for structure and size
 * (pure). Node types are many and open-ended, so any upper-case type name is taken; links that
 * would run script are not.
 */
import type { FieldViolation } from '../../platform/errors.js';

export const MAX_CONTENT_BYTES = 512 * 1024;
export const MAX_NODES = 5000;
export const MAX_DEPTH = 30;
const NODE_TYPE = /^[A-Z][A-Z0-9_]{0,49}$/;
const TOP_KEYS = new Set(['nodes', 'metadata', 'documentStyle']);
const LINK_KEYS = new Set(['url', 'href', 'src']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function checkRichContent(content: unknown, path = 'memberAbout.content'): FieldViolation[] {
  const violations: FieldViolation[] = [];
  if (!isRecord(content)) return [{ field: path, rule: 'REQUIRED_FIELD', description: 'must be a rich-content document' }];
  if (Buffer.byteLength(JSON.stringify(content), 'utf8') > MAX_CONTENT_BYTES) {
    return [{ field: path, rule: 'MAX_SIZE', description: `must be at most ${MAX_CONTENT_BYTES} bytes`, data: { threshold: MAX_CONTENT_BYTES } }];
  }
  for (const key of Object.keys(content)) {
    if (!TOP_KEYS.has(key)) violations.push({ field: `${path}.${key}`, rule: 'FIELD_NOT_ALLOWED', description: 'is not part of a rich-content document' });
  }
  if (!Array.isArray(content.nodes)) {
    violations.push({ field: `${path}.nodes`, rule: 'REQUIRED_FIELD', description: 'must be a list of nodes' });
    return violations;
  }
  let count = 0;
  const visit = (nodes: unknown[], at: string, depth: number): void => {
    if (depth > MAX_DEPTH) {
      violations.push({ field: at, rule: 'MAX', description: `nodes nest at most ${MAX_DEPTH} deep`, data: { threshold: MAX_DEPTH } });
      return;
    }
    nodes.forEach((node, i) => {
      const here = `${at}[${i}]`;
      if (++count > MAX_NODES) return;
      if (!isRecord(node)) {
        violations.push({ field: here, rule: 'VALIDATION', description: 'a node must be an object' });
        return;
      }
      if (typeof node.type !== 'string' || !NODE_TYPE.test(node.type)) {
        violations.push({ field: `${here}.type`, rule: 'FORMAT', description: 'a node needs an upper-case type such as PARAGRAPH or TEXT' });
      }
      if (node.id !== undefined && (typeof node.id !== 'string' || node.id.length > 100)) {
        violations.push({ field: `${here}.id`, rule: 'VALIDATION', description: 'must be a string of at most 100 characters' });
      }
      if (node.nodes !== undefined) {
        if (Array.isArray(node.nodes)) visit(node.nodes, `${here}.nodes`, depth + 1);
        else violations.push({ field: `${here}.nodes`, rule: 'VALIDATION', description: 'must be a list of nodes' });
      }
    });
  };
  visit(content.nodes, `${path}.nodes`, 1);
  if (count > MAX_NODES) violations.push({ field: `${path}.nodes`, rule: 'MAX_SIZE', description: `at most ${MAX_NODES} nodes`, data: { threshold: MAX_NODES } });
  const scriptLink = findScriptLink(content, path, 0);
  if (scriptLink) violations.push({ field: scriptLink, rule: 'FORMAT', description: 'links may not run script' });
  return violations;
}

function findScriptLink(value: unknown, path: string, depth: number): string | undefined {
  if (depth > MAX_DEPTH * 4) return undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findScriptLink(item, `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (LINK_KEYS.has(key) && typeof item === 'string' && /^\s*(javascript:|vbscript:|data:text\/html)/i.test(item)) return `${path}.${key}`;
    const found = findScriptLink(item, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}
