/** Query-string encoding of GET/DELETE payloads (wire-surface §1.4). */

export type PlainObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** base64url of UTF-8 text, `+`→`-`, `/`→`_`, no `=` padding. */
export function base64UrlEncode(text: string): string {
  return base64UrlFromBytes(new TextEncoder().encode(text));
}

export function base64UrlFromBytes(bytes: Uint8Array): string {
  let binary = '';
  // Chunked so that large payloads do not overflow the argument limit of fromCharCode.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function scalar(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

function flatten(prefix: string, value: unknown, out: string[]): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    // Arrays of scalars repeat the key; arrays of objects cannot be flattened and are dropped.
    for (const entry of value) {
      if (entry !== null && entry !== undefined && !isPlainObject(entry) && !Array.isArray(entry)) {
        out.push(`${encodeURIComponent(prefix)}=${encodeURIComponent(scalar(entry))}`);
      }
    }
    return;
  }
  if (isPlainObject(value)) {
    for (const [key, entry] of Object.entries(value)) flatten(prefix ? `${prefix}.${key}` : key, entry, out);
    return;
  }
  out.push(`${encodeURIComponent(prefix)}=${encodeURIComponent(scalar(value))}`);
}

function hasNestedObjects(payload: PlainObject): boolean {
  return Object.values(payload).some(
    (value) => isPlainObject(value) || (Array.isArray(value) && value.some(isPlainObject)),
  );
}

/** The `.r` form: one parameter holding the whole payload as base64url JSON. */
export function encodedPayloadParam(payload: PlainObject): string {
  return `.r=${base64UrlEncode(JSON.stringify(payload))}`;
}

/**
 * Encodes a payload for the query string. Scalars as `key=value`, nested objects with dotted keys,
 * arrays of scalars as repeated keys. With `complex`, a payload holding any nested object is sent as a
 * single `.r` parameter instead.
 */
export function toQueryString(payload: PlainObject, complex = false): string {
  if (complex && hasNestedObjects(payload)) return encodedPayloadParam(payload);
  const pairs: string[] = [];
  flatten('', payload, pairs);
  return pairs.join('&');
}
