import { randomBytes, randomUUID, createHash } from 'node:crypto';

/** Entity ids are UUIDs, as on the wire of the official APIs. */
export function newId(): string {
  return randomUUID();
}

/** An unguessable secret (refresh tokens, API keys, codes): 32 random bytes, base64url. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Secrets are stored only as this hash; 256 random bits need no salt or slow hash. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}
