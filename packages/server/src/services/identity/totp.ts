// TOTP (RFC 6238) through the otpauth library: 30-second steps, 6 digits, SHA-1 (what every
// authenticator app reads), one step either side accepted, and each step usable once.
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { hashSecret } from '../../platform/ids.js';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of now (clock drift, a code typed as it changes). */
export const TOTP_WINDOW = 1;

function totp(secret: string, issuer = 'Bodega', label = 'member'): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

/** A new shared secret: 160 random bits (RFC 4226's recommended length), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/...` URI an authenticator app scans. */
export function totpUri(secret: string, issuer: string, label: string): string {
  return totp(secret, issuer, label).toString();
}

/** The code of a moment (tests, and nothing else, need it). */
export function totpCode(secret: string, at: Date): string {
  return totp(secret).generate({ timestamp: at.getTime() });
}

/**
 * The step a code belongs to when it is right for now ±1 step and later than the last step used;
 * undefined otherwise (wrong, too old, or a replay of a code already used).
 */
export function acceptedStep(secret: string, code: string, now: Date, lastUsedStep: number | null): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const t = totp(secret);
  const delta = t.validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  if (delta === null) return undefined;
  const step = t.counter({ timestamp: now.getTime() }) + delta;
  return lastUsedStep !== null && step <= lastUsedStep ? undefined : step;
}

export const RECOVERY_CODE_COUNT = 10;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A recovery code: 80 random bits as 16 base32 letters in groups of four (`abcd-efgh-ijkl-mnop`). */
export function newRecoveryCode(): string {
  const bytes = randomBytes(16);
  const letters = Array.from({ length: 16 }, (_, i) => BASE32[bytes[i] & 31]).join('');
  return letters.match(/.{4}/g)?.join('-') ?? letters;
}

/**
 * A recovery code as stored: SHA-256 of its letters (case, spaces and dashes ignored). 80 random
 * bits leave nothing to guess offline, so a slow hash (argon2id) would only cost each sign-in
 * time, and an unsalted hash is what lets the code be looked up by its hash.
 */
export function recoveryCodeHash(code: string): string {
  return hashSecret(`recovery:${code.toLowerCase().replace(/[^a-z2-7]/g, '')}`);
}
