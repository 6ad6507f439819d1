// Sealing the provider keys a site's owner enters: they are stored encrypted and never read back
// out to a client. The one place that knows how; at merge it is pointed at the shared
// platform/secrets.ts (branch access-domains), which encrypts under the server's own key.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/** The server key: PAYMENTS_SECRET_KEY when set, else a key derived from the database location (tests, a single box). */
function serverKey(): Buffer {
  const configured = process.env.PAYMENTS_SECRET_KEY ?? process.env.DATABASE_URL ?? process.env.DATA_DIR ?? 'bodega-local';
  return createHash('sha256').update(`bodega-payments:${configured}`).digest();
}

export function seal(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', serverKey(), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function unseal(sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('A sealed secret is not in a form this server wrote');
  const decipher = createDecipheriv('aes-256-gcm', serverKey(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** What the back office may show of a secret: its kind and last four characters. */
export function hint(secret: string): string {
  return `${secret.slice(0, secret.indexOf('_', 3) + 1 || 3)}…${secret.slice(-4)}`;
}
