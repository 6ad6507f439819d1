// Signed download links and the HTTP details of a download (pure: no I/O, no clock).
// A link names the site, the grant (one order line and one file) and its expiry, signed with
// HMAC-SHA256 under a key derived from the server's secret key; a changed character fails.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Keyring, SecretKey } from '../../platform/secrets.js';

export interface LinkClaims {
  siteId: string;
  grantId: string;
  expiresAt: Date;
}

function linkKey(key: SecretKey): Buffer {
  return createHmac('sha256', key.key).update('bodega.digital-downloads.v1').digest();
}

function signature(key: SecretKey, payload: string): Buffer {
  return createHmac('sha256', linkKey(key)).update(payload).digest();
}

export function signLink(keyring: Keyring, claims: LinkClaims): string {
  const payload = Buffer.from(`${claims.siteId}\n${claims.grantId}\n${Math.floor(claims.expiresAt.getTime() / 1000)}`).toString('base64url');
  return `${payload}.${signature(keyring.current, payload).toString('base64url')}`;
}

/** The claims of a link this server signed (under the current or a previous key), or undefined. */
export function verifyLink(keyring: Keyring, token: string): LinkClaims | undefined {
  const [payload, sig, ...rest] = token.split('.');
  if (!payload || !sig || rest.length > 0 || !/^[A-Za-z0-9_-]+$/.test(payload) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return undefined;
  const given = Buffer.from(sig, 'base64url');
  // Base64 leaves spare bits in the last character: only the one spelling this server writes is taken.
  if (given.toString('base64url') !== sig) return undefined;
  const signedByUs = [keyring.current, ...keyring.previous].some((key) => {
    const wanted = signature(key, payload);
    return wanted.length === given.length && timingSafeEqual(wanted, given);
  });
  if (!signedByUs) return undefined;
  const [siteId, grantId, seconds, ...more] = Buffer.from(payload, 'base64url').toString('utf8').split('\n');
  if (!siteId || !grantId || !seconds || more.length > 0 || !/^\d{1,12}$/.test(seconds)) return undefined;
  return { siteId, grantId, expiresAt: new Date(Number(seconds) * 1000) };
}

/**
 * A Content-Disposition that every browser reads safely (RFC 6266 with RFC 5987's `filename*`):
 * an ASCII fallback without quotes, slashes or control characters, and the UTF-8 name encoded.
 */
export function contentDisposition(fileName: string): string {
  const clean = replaceControls(fileName, '_').replace(/[/\\]/g, '_').trim() || 'download';
  const ascii = clean.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/["%;]/g, '_').trim() || 'download';
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** `text` with each control character (C0 and DEL) replaced by `by`. */
export function replaceControls(text: string, by: string): string {
  return Array.from(text, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code < 0x20 || code === 0x7f ? by : c;
  }).join('');
}

export type RangeAnswer = { kind: 'all' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * One `bytes=` range of a file of `size` bytes (RFC 9110 §14): `a-b`, `a-` or `-n`. Several ranges
 * or a malformed header are answered with the whole file, as the RFC allows.
 */
export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (!header) return { kind: 'all' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'all' };
  const [, from, to] = match;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (to !== '' && Number(to) < start) return { kind: 'all' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
}
