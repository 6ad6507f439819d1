import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 verifier: 43 to 128 characters of A–Z a–z 0–9 - . _ ~ */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is base64url(sha256), 43 characters without padding. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export const PKCE_METHOD = 'S256';

export function isValidCodeVerifier(verifier: unknown): verifier is string {
  return typeof verifier === 'string' && VERIFIER.test(verifier);
}

export function isValidCodeChallenge(challenge: unknown): challenge is string {
  return typeof challenge === 'string' && S256_CHALLENGE.test(challenge);
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export type PkceCheck = 'OK' | 'BAD_VERIFIER' | 'MISMATCH';

/** Checks a token request's verifier against the challenge the authorize step stored. */
export function checkPkce(verifier: unknown, challenge: string): PkceCheck {
  if (!isValidCodeVerifier(verifier)) return 'BAD_VERIFIER';
  const given = Buffer.from(s256(verifier));
  const expected = Buffer.from(challenge);
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'OK' : 'MISMATCH';
}
