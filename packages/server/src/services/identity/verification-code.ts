import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

export const CODE_LENGTH = 6;
export const CODE_TTL_MS = 15 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;

/** A uniformly random 6-digit code, leading zeros kept. */
export function generateCode(random: (max: number) => number = randomInt): string {
  return String(random(10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
}

/** Codes are stored only as a hash salted with their verification id. */
export function hashCode(verificationId: string, code: string): string {
  return createHash('sha256').update(`${verificationId}:${code}`).digest('base64url');
}

export function codeExpiry(issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + CODE_TTL_MS);
}

export interface IssuedCode {
  verificationId: string;
  codeHash: string;
  attempts: number;
  expiresAt: Date;
  verifiedAt: Date | null;
}

export type CodeCheck = 'OK' | 'WRONG' | 'EXPIRED' | 'EXHAUSTED' | 'USED';

/** Decides a verification attempt; a WRONG answer counts as one of the code's tries. */
export function checkCode(issued: IssuedCode, code: string, now: Date): CodeCheck {
  if (issued.verifiedAt) return 'USED';
  if (issued.attempts >= CODE_MAX_ATTEMPTS) return 'EXHAUSTED';
  if (now.getTime() >= issued.expiresAt.getTime()) return 'EXPIRED';
  if (!/^\d{6}$/.test(code)) return 'WRONG';
  const given = Buffer.from(hashCode(issued.verificationId, code));
  const expected = Buffer.from(issued.codeHash);
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'OK' : 'WRONG';
}
