import http from 'node:http';
import https from 'node:https';
import dns from 'node:dns';
import net from 'node:net';
import { isPrivateAddress } from '../../platform/addresses.js';

export { isPrivateAddress };

/** Why a receiver URL is refused, or undefined. Names are checked again at connect time (DNS can change). */
export function urlProblem(text: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'only http and https receivers';
  if (url.username || url.password) return 'credentials in the URL are not allowed';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || (net.isIP(host) !== 0 && isPrivateAddress(host)))) {
    return 'loopback and private addresses are refused';
  }
  return undefined;
}

export class RefusedAddressError extends Error {}

export interface SendResult {
  /** The HTTP status, or null when no response came (refused, time-out, DNS). */
  status: number | null;
  error: string | null;
  excerpt: string | null;
  durationMs: number;
}

const EXCERPT_BYTES = 1024;
/** Kept-alive connections: each socket's address passed the check when it was opened. */
const AGENTS = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }) };

/**
 * POSTs one body with a hard time-out. The address is checked after DNS resolution, inside the
 * socket's lookup, so a name that resolves to a private address is refused (no rebinding window).
 */
export function post(urlText: string, headers: Record<string, string>, body: string, options: { timeoutMs: number; allowPrivate: boolean }): Promise<SendResult> {
  const started = performance.now();
  const done = (status: number | null, error: string | null, excerpt: string | null): SendResult => ({ status, error, excerpt, durationMs: Math.round(performance.now() - started) });
  return new Promise((resolve) => {
    const url = new URL(urlText);
    const problem = urlProblem(urlText, options.allowPrivate);
    if (problem) return resolve(done(null, `refused: ${problem}`, null));
    const lookup: net.LookupFunction = (hostname, lookupOptions, callback) => {
      dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
        if (error) return callback(error, '', 0);
        const allowed = options.allowPrivate ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
        if (allowed.length === 0) return callback(new RefusedAddressError(`refused: ${hostname} resolves to a private address`), '', 0);
        if (lookupOptions.all) return callback(null, allowed);
        callback(null, allowed[0].address, allowed[0].family);
      });
    };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Bodega-Webhooks/1' },
      lookup,
      agent: url.protocol === 'https:' ? AGENTS['https:'] : AGENTS['http:'],
      signal: AbortSignal.timeout(options.timeoutMs),
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < EXCERPT_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => resolve(done(res.statusCode ?? null, null, Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'))));
      res.on('error', (error) => resolve(done(res.statusCode ?? null, error.message, null)));
    });
    req.on('error', (error) => {
      const message = error.name === 'AbortError' || error.name === 'TimeoutError' ? `time-out after ${options.timeoutMs} ms` : error.message;
      resolve(done(null, message, null));
    });
    req.end(body);
  });
}
