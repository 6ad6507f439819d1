import { describe, expect, it } from 'vitest';
import { captchaTokenValues, captchaVerifier, requireCaptcha } from './captcha.js';
import { afterEmailVerified, emailKey, entryOf, initialStatus, normaliseEmail } from './entry.js';
import { LOCKOUT_WINDOW_MS, lockoutState } from './lockout.js';
import { hashPassword, passwordViolations, verifyPassword } from './passwords.js';
import { CODE_MAX_ATTEMPTS, CODE_TTL_MS, checkCode, codeExpiry, generateCode, hashCode } from './verification-code.js';

describe('password rules', () => {
  it.each([
    ['', 'REQUIRED_FIELD'],
    ['short7!', 'MIN_LENGTH'],
    ['x'.repeat(257), 'MAX_LENGTH'],
    ['😀'.repeat(7), 'MIN_LENGTH'],
  ])('refuses %j with %s', (password, rule) => {
    expect(passwordViolations(password).map((v) => v.rule)).toEqual([rule]);
  });

  it.each(['12345678', 'x'.repeat(256), '😀'.repeat(8), 'correct horse battery staple'])('accepts a password of %j', (password) => {
    expect(passwordViolations(password)).toEqual([]);
  });

  it('refuses a password that is not text', () => {
    expect(passwordViolations(12345678)).toEqual([expect.objectContaining({ field: 'password', rule: 'REQUIRED_FIELD' })]);
  });

  it('hashes with argon2id and checks the password', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(hash, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(hash, 'wrong horse battery')).toBe(false);
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
  });
});

describe('verification codes', () => {
  const now = new Date('2026-03-01T10:00:00Z');
  const issued = (code: string, overrides: Partial<Parameters<typeof checkCode>[0]> = {}) => ({
    verificationId: 'v1', codeHash: hashCode('v1', code), attempts: 0, expiresAt: codeExpiry(now), verifiedAt: null, ...overrides,
  });

  it('generates 6 digits, keeping leading zeros', () => {
    expect(generateCode(() => 42)).toBe('000042');
    expect(generateCode(() => 999_999)).toBe('999999');
    for (let i = 0; i < 50; i++) expect(generateCode()).toMatch(/^\d{6}$/);
  });

  it('is valid for 15 minutes', () => {
    expect(CODE_TTL_MS).toBe(15 * 60_000);
    expect(checkCode(issued('123456'), '123456', new Date(now.getTime() + CODE_TTL_MS - 1))).toBe('OK');
    expect(checkCode(issued('123456'), '123456', new Date(now.getTime() + CODE_TTL_MS))).toBe('EXPIRED');
  });

  it.each([
    ['123456', {}, 'OK'],
    ['123457', {}, 'WRONG'],
    ['12345', {}, 'WRONG'],
    ['abcdef', {}, 'WRONG'],
    ['123456', { attempts: CODE_MAX_ATTEMPTS - 1 }, 'OK'],
    ['123456', { attempts: CODE_MAX_ATTEMPTS }, 'EXHAUSTED'],
    ['123456', { verifiedAt: now }, 'USED'],
  ] as const)('answers %s with %o as %s', (code, overrides, expected) => {
    expect(checkCode(issued('123456', overrides), code, now)).toBe(expected);
  });

  it('salts the stored hash with the verification id', () => {
    expect(hashCode('v1', '123456')).not.toBe(hashCode('v2', '123456'));
  });
});

describe('lock-out', () => {
  const now = new Date('2026-03-01T10:00:00Z');
  const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);

  it('stays open below 5 failures in 15 minutes', () => {
    expect(lockoutState([ago(1), ago(2), ago(3), ago(4)], now)).toEqual({ locked: false });
    expect(lockoutState([ago(1), ago(2), ago(3), ago(4), ago(16)], now)).toEqual({ locked: false });
  });

  it('locks at 5 failures until the oldest leaves the window', () => {
    const state = lockoutState([ago(10), ago(8), ago(6), ago(4), ago(2)], now);
    expect(state.locked).toBe(true);
    expect(state.until).toEqual(new Date(ago(10).getTime() + LOCKOUT_WINDOW_MS));
  });

  it('with more failures, lifts when only four remain in the window', () => {
    const failures = [ago(14), ago(12), ago(10), ago(8), ago(6), ago(4)];
    expect(lockoutState(failures, now).until).toEqual(new Date(ago(12).getTime() + LOCKOUT_WINDOW_MS));
  });
});

describe('captcha', () => {
  it('reads the token values the official SDK sends', () => {
    expect(captchaTokenValues([{ Recaptcha: 'a', InvisibleRecaptcha: 'b' }, { NoCaptcha: '' }, 'x', null])).toEqual(['a', 'b']);
    expect(captchaTokenValues(undefined)).toEqual([]);
  });

  it('answers -19971 when missing and -19970 when wrong, only when required', async () => {
    const test = captchaVerifier('test');
    await expect(requireCaptcha(test, true, undefined)).rejects.toMatchObject({ code: '-19971' });
    await expect(requireCaptcha(test, true, [{ Recaptcha: 'nope' }])).rejects.toMatchObject({ code: '-19970' });
    await expect(requireCaptcha(test, true, [{ Recaptcha: 'pass' }])).resolves.toBeUndefined();
    await expect(requireCaptcha(test, false, undefined)).resolves.toBeUndefined();
    await expect(requireCaptcha(captchaVerifier('none'), true, undefined)).resolves.toBeUndefined();
  });
});

describe('sign-up policy and entry', () => {
  it.each([
    ['open', 'ACTIVE', 'APPROVED'],
    ['email-verification', 'PENDING', 'PENDING'],
    ['owner-approval', 'PENDING', 'PENDING'],
  ] as const)('a %s site starts an identity %s and its member %s', (policy, identityStatus, memberStatus) => {
    expect(initialStatus(policy)).toMatchObject({ identityStatus, memberStatus });
  });

  it.each([
    [{ status: 'ACTIVE', reasons: [] }, 'APPROVED', 'SUCCESS'],
    [{ status: 'PENDING', reasons: ['PENDING_EMAIL_VERIFICATION_REQUIRED'] }, 'PENDING', 'REQUIRE_EMAIL_VERIFICATION'],
    [{ status: 'PENDING', reasons: ['PENDING_ADMIN_APPROVAL_REQUIRED'] }, 'PENDING', 'REQUIRE_OWNER_APPROVAL'],
    [{ status: 'ACTIVE', reasons: [] }, 'PENDING', 'REQUIRE_OWNER_APPROVAL'],
    [{ status: 'ACTIVE', reasons: [] }, 'BLOCKED', 'BLOCKED'],
    [{ status: 'BLOCKED', reasons: [] }, 'APPROVED', 'BLOCKED'],
    [{ status: 'ACTIVE', reasons: [] }, 'OFFLINE', 'BLOCKED'],
    [{ status: 'DELETED', reasons: [] }, 'APPROVED', 'GONE'],
    [{ status: 'ACTIVE', reasons: [] }, undefined, 'GONE'],
  ] as const)('identity %o with member %s enters as %s', (identity, member, entry) => {
    expect(entryOf(identity, member)).toBe(entry);
  });

  it('approves a member waiting only for the e-mail, not one awaiting the owner', () => {
    expect(afterEmailVerified(['PENDING_EMAIL_VERIFICATION_REQUIRED'])).toEqual({ identityStatus: 'ACTIVE', reasons: [], memberStatus: 'APPROVED' });
    expect(afterEmailVerified(['PENDING_EMAIL_VERIFICATION_REQUIRED', 'PENDING_ADMIN_APPROVAL_REQUIRED']).memberStatus).toBe('PENDING');
  });

  it.each([
    [' Jane.Doe@Example.COM ', 'Jane.Doe@Example.COM'],
    ['a@b.co', 'a@b.co'],
    ['no-at-sign', undefined],
    ['a@b', undefined],
    ['a b@c.de', undefined],
    ['a..b@c.de', undefined],
    [`${'x'.repeat(250)}@c.de`, undefined],
    [42, undefined],
  ])('normalises the login e-mail %j to %j', (input, expected) => {
    expect(normaliseEmail(input)).toBe(expected);
  });

  it('compares e-mails case-insensitively', () => {
    expect(emailKey('Jane@Example.com')).toBe(emailKey('jane@example.COM'));
  });
});
