import { createHmac, generateKeyPair, randomBytes, type KeyObject, createPrivateKey } from 'node:crypto';
import { promisify } from 'node:util';
import { SignJWT } from 'jose';
import type { Db } from '../../platform/db.js';
import { decryptSecret, encryptSecret, type Keyring, type SealedColumn } from '../../platform/secrets.js';
import { TtlCache } from '../../platform/ttl-cache.js';

/** The webhook secrets kept sealed with the server key (see platform/secrets.ts). */
export const WEBHOOK_SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'webhook_keys', keys: ['site_id'], column: 'private_key' },
  { table: 'webhook_subscriptions', keys: ['site_id', 'subscription_id'], column: 'secret' },
];

const generateRsa = promisify(generateKeyPair);
const SITE_KEYS_KEPT = 10_000;

export interface SiteKeys {
  publicKey: string;
  privateKey: KeyObject;
}

/**
 * Each site's RS256 key pair for Wix-format bodies, made on first use. Two servers making one at
 * once both insert; the first wins and both read it back.
 */
export class SiteKeyStore {
  /** Bounded: a server of many sites keeps the pairs of the SITE_KEYS_KEPT last used (others are read again). */
  private readonly cache: TtlCache<string, SiteKeys>;

  constructor(private readonly db: Db, private readonly now: () => Date, readonly ring: Keyring) {
    this.cache = new TtlCache({ ttlMs: Number.POSITIVE_INFINITY, maxSize: SITE_KEYS_KEPT, now });
  }

  async keysOf(siteId: string): Promise<SiteKeys> {
    const cached = this.cache.get(siteId);
    if (cached) return cached;
    let rows = await this.db.query<{ public_key: string; private_key: string }>('SELECT public_key, private_key FROM webhook_keys WHERE site_id = $1', [siteId]);
    if (rows.length === 0) {
      const pair = await generateRsa('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
      await this.db.query('INSERT INTO webhook_keys (site_id, public_key, private_key, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (site_id) DO NOTHING', [
        siteId, pair.publicKey, encryptSecret(this.ring, pair.privateKey), this.now(),
      ]);
      rows = await this.db.query('SELECT public_key, private_key FROM webhook_keys WHERE site_id = $1', [siteId]);
    }
    const keys = { publicKey: rows[0].public_key, privateKey: createPrivateKey(decryptSecret(this.ring, rows[0].private_key)) };
    this.cache.set(siteId, keys);
    return keys;
  }
}

/** The Wix body: a JWT whose `data` claim is a JSON string (the official SDK's `webhooks.process` reads it). */
export async function signWixJwt(data: string, key: KeyObject, at: Date): Promise<string> {
  const iat = Math.floor(at.getTime() / 1000);
  return new SignJWT({ data }).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).setIssuedAt(iat).sign(key);
}

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export function newStandardSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the secret's decoded bytes. */
export function standardSignature(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')}`;
}
