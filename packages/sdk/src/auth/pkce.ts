/** PKCE (RFC 7636, S256) with WebCrypto. */
import { base64UrlFromBytes } from '../core/query-string.js';

export const VERIFIER_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
export const DEFAULT_VERIFIER_LENGTH = 43;

/** A random string of `length` (43–128) characters from the unreserved alphabet. */
export function createCodeVerifier(length = DEFAULT_VERIFIER_LENGTH): string {
  if (!Number.isInteger(length) || length < 43 || length > 128) {
    throw new Error('Expected a length between 43 and 128');
  }
  const size = VERIFIER_ALPHABET.length;
  // Bytes at or above the largest multiple of the alphabet size are rejected to keep the choice uniform.
  const limit = 256 - (256 % size);
  let verifier = '';
  while (verifier.length < length) {
    for (const byte of globalThis.crypto.getRandomValues(new Uint8Array(length))) {
      if (byte < limit && verifier.length < length) verifier += VERIFIER_ALPHABET[byte % size];
    }
  }
  return verifier;
}

/** `base64url(sha256(verifier))`. */
export async function codeChallengeS256(verifier: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64UrlFromBytes(new Uint8Array(digest));
}
