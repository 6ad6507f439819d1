/**
 * Decodes the query string the way the official SDK encodes GET and DELETE payloads
 * (wire reference §1.4): a single `.r` parameter holding base64url (unpadded) UTF-8 JSON,
 * or dotted keys for nested objects and repeated keys for arrays. Other keys beside `.r`
 * are merged in (the SDK repeats path parameters).
 */
export const QUERY_ERROR = Symbol('queryError');

export type DecodedQuery = Record<string, unknown> & { [QUERY_ERROR]?: string };

const UNSAFE_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

export function decodeQueryString(text: string): DecodedQuery {
  const query: DecodedQuery = {};
  const params = new URLSearchParams(text);
  for (const [key, value] of params) {
    if (key === '.r') continue;
    const path = key.split('.');
    if (path.some((p) => p === '' || UNSAFE_KEYS.has(p))) {
      return withError(`Query parameter "${key}" is not a valid name`);
    }
    if (!assignPath(query, path, value)) return withError(`Query parameter "${key}" conflicts with another parameter`);
  }
  const encoded = params.getAll('.r');
  if (encoded.length > 1) return withError('Send one ".r" parameter');
  if (encoded.length === 1) {
    const decoded = decodeDotR(encoded[0]);
    if (decoded === undefined) return withError('The ".r" parameter is not base64url-encoded JSON');
    // The decoded payload wins over the repeated path parameters.
    for (const [key, value] of Object.entries(decoded)) {
      if (!UNSAFE_KEYS.has(key)) query[key] = value;
    }
  }
  return query;
}

function withError(message: string): DecodedQuery {
  const query: DecodedQuery = {};
  Object.defineProperty(query, QUERY_ERROR, { value: message, enumerable: false });
  return query;
}

function decodeDotR(value: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(value)) return undefined;
  try {
    const json = Buffer.from(value, 'base64url').toString('utf8');
    const parsed: unknown = JSON.parse(json, (key, v: unknown) => (UNSAFE_KEYS.has(key) ? undefined : v));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Sets query[a][b]… = value; a repeated key becomes an array. False when a scalar and an object collide. */
function assignPath(target: Record<string, unknown>, path: string[], value: string): boolean {
  let node = target;
  for (const segment of path.slice(0, -1)) {
    const next = node[segment];
    if (next === undefined) {
      const child: Record<string, unknown> = {};
      node[segment] = child;
      node = child;
    } else if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
      node = next as Record<string, unknown>;
    } else {
      return false;
    }
  }
  const last = path[path.length - 1];
  const existing = node[last];
  if (existing === undefined) node[last] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else if (typeof existing === 'string') node[last] = [existing, value];
  else return false;
  return true;
}
