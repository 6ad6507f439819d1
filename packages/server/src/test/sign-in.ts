/**
 * Test helpers for sign-in: an app with SMTP, captcha and rate-limit settings, a local SMTP
 * server that captures mail, and a fetch rewrite so the official `@wix/sdk` (which always calls
 * https://www.wixapis.com and https://edge.wixapis.com) talks to the server under test.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app.js';
import type { CaptchaProvider } from '../platform/config.js';
import type { Db } from '../platform/db.js';
import type { CreateSiteInput } from '../services/sites/service.js';
import { testDb, type TestSite } from './harness.js';
import { redirectWixFetch } from './wix-fetch.js';
import type { IOAuthStrategy } from '@wix/sdk';

export interface SignInAppOptions {
  now?: () => Date;
  smtpUrl?: string;
  captchaProvider?: CaptchaProvider;
  /** Defaults to 0 (off) so tests can sign in as often as they like. */
  rateLimitPerMinute?: number;
  webDir?: string;
  /** Listen on 127.0.0.1 with PUBLIC_URL on that port (fullUrl is then reachable). */
  listen?: boolean;
  db?: Db;
}

export interface SignInApp {
  app: FastifyInstance;
  db: Db;
  /** The listening origin (with `listen`), also PUBLIC_URL; else http://localhost:3000. */
  url: string;
  createSite(input?: Partial<CreateSiteInput>): Promise<TestSite>;
  visitorToken(site: TestSite): Promise<string>;
  close(): Promise<void>;
}

let counter = 0;

/** A free TCP port on 127.0.0.1 (PUBLIC_URL must be known before the app is built). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function signInApp(options: SignInAppOptions = {}): Promise<SignInApp> {
  const db = options.db ?? (await testDb());
  const port = options.listen ? await freePort() : 3000;
  const url = options.listen ? `http://127.0.0.1:${port}` : 'http://localhost:3000';
  const app = await buildApp({
    db,
    config: {
      publicUrl: url, logLevel: 'silent', webDir: options.webDir, smtpUrl: options.smtpUrl,
      captchaProvider: options.captchaProvider ?? 'none', authRateLimitPerMinute: options.rateLimitPerMinute ?? 0,
    },
    now: options.now,
  });
  if (options.listen) await app.listen({ port, host: '127.0.0.1' });
  else await app.ready();
  return {
    app,
    db,
    url,
    async createSite(input = {}) {
      const created = await app.services.sites.createSite({ name: `Sign-in site ${++counter}`, ...input });
      return { siteId: created.site.siteId, clientId: created.clientId, apiKey: created.apiKey };
    },
    async visitorToken(site) {
      const res = await app.inject({ method: 'POST', url: '/oauth2/token', payload: { clientId: site.clientId, grantType: 'anonymous' } });
      if (res.statusCode !== 200) throw new Error(`anonymous grant failed: ${res.body}`);
      return (res.json() as { access_token: string }).access_token;
    },
    async close() {
      await app.close();
      if (!options.db) await db.close();
    },
  };
}

export interface CapturedMail {
  to: string[];
  raw: string;
  subject: string;
  /** The decoded text/plain part. */
  text: string;
  /** The decoded text/html part. */
  html: string;
}

/** A local SMTP server that keeps every message it receives. */
export class SmtpCapture {
  readonly messages: CapturedMail[] = [];
  private readonly server: SMTPServer;
  private port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          this.messages.push({ to, raw, subject: header(raw, 'subject'), text: mimePart(raw, 'text/plain'), html: mimePart(raw, 'text/html') });
          callback();
        });
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
    return this.url;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Waits (polling, with a deadline) for the next mail to `to` that matches. */
  async waitFor(to: string, match: (mail: CapturedMail) => boolean = () => true, timeoutMs = 10_000, after = 0): Promise<CapturedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(after).find((m) => m.to.includes(to.toLowerCase()) && match(m));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms (got ${this.messages.length} in all)`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Counts mail to an address so a later `waitFor(…, after)` sees only newer mail. */
  count(): number {
    return this.messages.length;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function unfoldHeaders(raw: string): string {
  const end = raw.search(/\r?\n\r?\n/);
  return (end < 0 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
}

function header(raw: string, name: string): string {
  const line = unfoldHeaders(raw).split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  const value = line ? line.slice(name.length + 1).trim() : '';
  // RFC 2047 encoded words (=?UTF-8?Q?…?= or =?UTF-8?B?…?=).
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, data: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')));
}

function decodeQuotedPrintable(text: string): string {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The decoded body of the first part with this content type (multipart or single part). */
function mimePart(raw: string, contentType: string): string {
  const boundaryMatch = /boundary="?([^";\r\n]+)"?/i.exec(unfoldHeaders(raw));
  const parts = boundaryMatch ? raw.split(`--${boundaryMatch[1]}`) : [raw];
  for (const part of parts) {
    const nested = /boundary="?([^";\r\n]+)"?/i.exec(unfoldHeaders(part.replace(/^\r?\n/, '')));
    if (nested && part !== raw) {
      const inner = mimePart(part.replace(/^\r?\n/, ''), contentType);
      if (inner) return inner;
      continue;
    }
    const trimmed = part.replace(/^\r?\n/, '');
    const headers = unfoldHeaders(trimmed).toLowerCase();
    if (!headers.includes(`content-type: ${contentType}`)) continue;
    const bodyStart = trimmed.search(/\r?\n\r?\n/);
    const body = bodyStart < 0 ? '' : trimmed.slice(bodyStart).replace(/^\r?\n\r?\n/, '');
    if (headers.includes('content-transfer-encoding: base64')) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    if (headers.includes('content-transfer-encoding: quoted-printable')) return decodeQuotedPrintable(body);
    return body;
  }
  return '';
}

/**
 * A member's tokens through the official SDK's own calls: getAuthUrl (prompt none, the session
 * token) → the server's redirect → getMemberTokens.
 */
export async function sdkMemberTokens(auth: IOAuthStrategy, baseUrl: string, sessionToken: string) {
  const oauthData = auth.generateOAuthData(`${baseUrl}/callback`);
  const options = { prompt: 'none' as const, responseMode: 'query' as const, sessionToken };
  const { authUrl } = await auth.getAuthUrl(oauthData, options);
  const res = await fetch(authUrl, { redirect: 'manual' });
  if (res.status !== 302) throw new Error(`the authorize step answered ${res.status}`);
  const { code, state } = auth.parseFromUrl(res.headers.get('location') ?? '', 'query');
  return { tokens: await auth.getMemberTokens(code, state, oauthData), oauthData, code, state };
}

/**
 * Points the official SDK at a local server: fetches to https://www.wixapis.com and
 * https://edge.wixapis.com go to `baseUrl` instead. Returns the function that restores fetch.
 */
export function redirectWixApis(baseUrl: string): () => void {
  return redirectWixFetch(baseUrl).restore;
}

/**
 * A listening sign-in app for a test file, with the official SDK's origins pointed at it: started
 * before the file's tests and closed after them. The returned function gives both inside a test.
 */
export function useListeningWixApp(): () => { t: SignInApp; wixFetch: ReturnType<typeof redirectWixFetch> } {
  let state: { t: SignInApp; wixFetch: ReturnType<typeof redirectWixFetch> } | undefined;
  beforeAll(async () => {
    const t = await signInApp({ listen: true });
    state = { t, wixFetch: redirectWixFetch(t.url) };
  });
  afterAll(async () => {
    state?.wixFetch.restore();
    await state?.t.close();
  });
  return () => {
    if (!state) throw new Error('the app did not start (see the beforeAll error)');
    return state;
  };
}

/**
 * A listening sign-in app with a captured SMTP session for a test file, the official SDK's
 * origins pointed at it: started before the file's tests and closed after them.
 */
export function useSdkSignInWithMail(options: Omit<SignInAppOptions, 'listen' | 'smtpUrl'> = {}): () => { t: SignInApp; smtp: SmtpCapture } {
  let state: { t: SignInApp; smtp: SmtpCapture; restore: () => void } | undefined;
  beforeAll(async () => {
    const smtp = new SmtpCapture();
    const smtpUrl = await smtp.start();
    const t = await signInApp({ ...options, smtpUrl, listen: true });
    state = { t, smtp, restore: redirectWixApis(t.url) };
  });
  afterAll(async () => {
    state?.restore();
    await state?.t.close();
    await state?.smtp.stop();
  });
  return () => {
    if (!state) throw new Error('the app did not start (see the beforeAll error)');
    return state;
  };
}
