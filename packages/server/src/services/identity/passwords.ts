import { hash, verify } from '@node-rs/argon2';
import type { FieldViolation } from '../../platform/errors.js';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** Password rules (issue: 8 to 256 characters, counted as Unicode code points). */
export function passwordViolations(password: unknown, field = 'password'): FieldViolation[] {
  if (typeof password !== 'string' || password.length === 0) {
    return [{ field, rule: 'REQUIRED_FIELD', description: 'a password is required' }];
  }
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) {
    return [{ field, rule: 'MIN_LENGTH', description: `must be at least ${PASSWORD_MIN_LENGTH} characters`, data: { threshold: PASSWORD_MIN_LENGTH } }];
  }
  if (length > PASSWORD_MAX_LENGTH) {
    return [{ field, rule: 'MAX_LENGTH', description: `must be at most ${PASSWORD_MAX_LENGTH} characters`, data: { threshold: PASSWORD_MAX_LENGTH } }];
  }
  return [];
}

/** argon2id with the library's defaults (19 MiB, 2 passes, 1 lane: the OWASP baseline). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of one password check without an account, so an unknown e-mail answers as
 * slowly as a known one.
 */
export async function spendPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hash('not-a-real-password-bodega');
  await verifyPassword(await dummyHash, password);
}
