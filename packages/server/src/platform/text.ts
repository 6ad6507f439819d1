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

/** Refuses a request carrying NUL anywhere in its path parameters, query or body, naming the field. */
export async function refuseNulCharacters(req: FastifyRequest): Promise<void> {
  for (const [part, value] of [['params', req.params], ['query', req.query], ['body', req.body]] as const) {
    const field = findNul(value);
    if (field !== undefined) {
      throw ApiError.validation([{ field: field || part, rule: 'FORMAT', description: 'must not contain the NUL character' }]);
    }
  }
}
