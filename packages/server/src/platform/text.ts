import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';

const MAX_DEPTH = 64;

/**
 * The path of the first string or key holding a NUL character (`member.profile.nickname`,
 * `lineItems[0].id`), or undefined. PostgreSQL text and jsonb cannot store NUL at all.
 */
export function findNul(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return at;
    const found = findNul(item, at, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Requests whose JSON body text cannot hold NUL (see noteJsonBody). */
const bodiesWithoutNul = new WeakSet<FastifyRequest>();

/**
 * Called with a JSON body's text before it is parsed. JSON can only carry NUL as the escape
 * `\u0000` (a raw NUL is not JSON), so a text without that sequence parses to values without NUL
 * and refuseNulCharacters need not walk them: one scan of the text instead of a walk of every
 * value (a 1000-item bulk call). A text with the sequence is walked as before.
 */
export function noteJsonBody(req: FastifyRequest, text: string): void {
  if (!text.includes('\\u0000') && !text.includes('\u0000')) bodiesWithoutNul.add(req);
}

/** Refuses a request carrying NUL anywhere in its path parameters, query or body, naming the field. */
export async function refuseNulCharacters(req: FastifyRequest): Promise<void> {
  for (const [part, value] of [['params', req.params], ['query', req.query], ['body', req.body]] as const) {
    if (part === 'body' && bodiesWithoutNul.has(req)) continue;
    const field = findNul(value);
    if (field !== undefined) {
      throw ApiError.validation([{ field: field || part, rule: 'FORMAT', description: 'must not contain the NUL character' }]);
    }
  }
}
