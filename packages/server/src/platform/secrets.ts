// Secrets at rest (webhook signing keys, payment credentials, …) are encrypted with the server's
// key: AES-256-GCM from node:crypto, stored as `bdgsec:v1:<key id>:<iv>.<ciphertext>.<tag>`
// (base64url). The key id says which key sealed a value, so `bodega secrets rotate` can re-seal
// every value under a new key while the old one is still given. A database or backup without the
// key holds nothing usable.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config.js';
import { secureDataDir, writePrivateFile } from './files.js';
import type { Queryable } from './db.js';

const PREFIX = 'bdgsec:v1:';
const KEY_BYTES = 32;
const IV_BYTES = 12;
export const KEY_FILE = 'secret.key';

export interface SecretKey {
  /** The first 12 hex digits of the key's SHA-256: names the key without revealing it. */
  id: string;
  key: Buffer;
}

/** The key that seals new values, and older ones still accepted for opening (during a rotation). */
export interface Keyring {
  current: SecretKey;
  previous: readonly SecretKey[];
}

export class SecretError extends Error {}

export function secretKey(key: Buffer): SecretKey {
  if (key.length !== KEY_BYTES) throw new ConfigError(`A secret key is ${KEY_BYTES} bytes (got ${key.length})`);
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 12), key };
}

/** A key as text: 64 hex digits or 43+ characters of base64/base64url for 32 bytes. */
export function parseKey(name: string, text: string): SecretKey {
  const trimmed = text.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (bytes.length !== KEY_BYTES) throw new ConfigError(`${name} must be ${KEY_BYTES} random bytes as 64 hex digits or base64 (e.g. \`openssl rand -hex 32\`)`);
  return secretKey(bytes);
}

export function newKeyText(): string {
  return randomBytes(KEY_BYTES).toString('hex');
}

export function keyring(current: SecretKey, previous: readonly SecretKey[] = []): Keyring {
  return { current, previous: previous.filter((k) => k.id !== current.id) };
}

/**
 * The server's key: `BODEGA_SECRET_KEY`; else, on the embedded database, `DATA_DIR/secret.key`
 * (created 0600 on first start). On PostgreSQL there is no such file to share between servers, so
 * a start without the variable is refused with one line.
 */
export function loadKeyring(env: NodeJS.ProcessEnv, where: { dataDir: string; databaseUrl: string | undefined }): Keyring {
  const text = env.BODEGA_SECRET_KEY;
  if (text !== undefined && text.trim() !== '') return keyring(parseKey('BODEGA_SECRET_KEY', text));
  if (where.databaseUrl) {
    throw new ConfigError('BODEGA_SECRET_KEY is required with DATABASE_URL (every server needs the same key; make one with `openssl rand -hex 32`)');
  }
  secureDataDir(where.dataDir);
  const file = path.join(where.dataDir, KEY_FILE);
  if (!fs.existsSync(file)) writePrivateFile(file, `${newKeyText()}\n`, 'wx');
  return keyring(parseKey(file, fs.readFileSync(file, 'utf8')));
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** Seals a secret with the keyring's current key. */
export function encryptSecret(ring: Keyring, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', ring.current.key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${PREFIX}${ring.current.id}:${[iv, body, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.')}`;
}

/**
 * Opens a sealed secret with whichever key of the ring sealed it. A value stored before
 * encryption (no prefix) is returned as it is, until the start-up pass or a rotation seals it.
 */
export function decryptSecret(ring: Keyring, stored: string): string {
  if (!isSealed(stored)) return stored;
  const [id, sealed] = stored.slice(PREFIX.length).split(':');
  const key = [ring.current, ...ring.previous].find((k) => k.id === id);
  if (!key) throw new SecretError(`A stored secret was sealed with key ${id}, which this server does not have (BODEGA_SECRET_KEY or DATA_DIR/${KEY_FILE})`);
  const [iv, body, tag] = (sealed ?? '').split('.').map((part) => Buffer.from(part, 'base64url'));
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretError(`A stored secret sealed with key ${id} does not open: it was changed`);
  }
}

/** The value sealed with the current key: already so, sealed now (plaintext) or re-sealed (an older key). */
export function resealSecret(ring: Keyring, stored: string): string {
  if (stored.startsWith(`${PREFIX}${ring.current.id}:`)) return stored;
  return encryptSecret(ring, decryptSecret(ring, stored));
}

/** A column that holds sealed secrets; each service that stores one names it (see app.ts). */
export interface SealedColumn {
  table: string;
  /** The row's key columns. */
  keys: readonly string[];
  column: string;
}

/**
 * Seals every stored secret with the ring's current key: plaintext rows from before encryption,
 * and rows sealed with an older key (a rotation). Each row changes only if it still holds the
 * value read (a conditional UPDATE), so servers running this at once do no harm. Returns how
 * many rows changed; `onlySites` limits it to those sites (tests sharing one database).
 */
export async function resealAll(
  db: Queryable, ring: Keyring, columns: readonly SealedColumn[], onlySites?: readonly string[],
  /** Given: a value sealed with a key the ring lacks is left as it is and reported, not thrown. */
  onUnreadable?: (where: { table: string; column: string }) => void,
): Promise<number> {
  let changed = 0;
  for (const { table, keys, column } of columns) {
    // Identifiers come from the code's own list, never from input. Every such table has site_id.
    const scope = onlySites ? ' AND site_id = ANY($2::text[])' : '';
    const rows = await db.query<Record<string, string>>(
      `SELECT ${[...keys, column].join(', ')} FROM ${table} WHERE ${column} NOT LIKE $1${scope}`,
      [`${PREFIX}${ring.current.id}:%`, ...(onlySites ? [onlySites] : [])]);
    for (const row of rows) {
      let sealed: string;
      try {
        sealed = resealSecret(ring, row[column]);
      } catch (error) {
        if (!onUnreadable || !(error instanceof SecretError)) throw error;
        onUnreadable({ table, column });
        continue;
      }
      const where = keys.map((k, i) => `${k} = $${i + 3}`).join(' AND ');
      const updated = await db.query(
        `UPDATE ${table} SET ${column} = $1 WHERE ${column} = $2 AND ${where} RETURNING 1`,
        [sealed, row[column], ...keys.map((k) => row[k])]);
      changed += updated.length;
    }
  }
  return changed;
}

/** The keyring from BODEGA_SECRET_KEY alone (apps built without one: tests and benches set it). */
export function keyringFromEnv(env: NodeJS.ProcessEnv): Keyring {
  const text = env.BODEGA_SECRET_KEY;
  if (text === undefined || text.trim() === '') throw new ConfigError('BODEGA_SECRET_KEY is not set');
  return keyring(parseKey('BODEGA_SECRET_KEY', text));
}
