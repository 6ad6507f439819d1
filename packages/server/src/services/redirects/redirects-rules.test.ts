import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkPkce, isValidCodeChallenge, isValidCodeVerifier, s256 } from './pkce.js';
import { allowedOrigins, isAllowedUrl, withParams } from '../../platform/redirect-uri.js';

describe('PKCE', () => {
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

  it('computes the RFC 7636 S256 challenge', () => {
    expect(s256(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(s256(verifier)).toBe(createHash('sha256').update(verifier).digest('base64url'));
  });

  it.each([
    ['a'.repeat(43), true],
    ['a'.repeat(128), true],
    ['a'.repeat(42), false],
    ['a'.repeat(129), false],
    [`${'a'.repeat(42)}~`, true],
    [`${'a'.repeat(42)}+`, false],
    [`${'a'.repeat(42)}=`, false],
    [42, false],
  ])('takes %j as a verifier: %s', (value, valid) => {
    expect(isValidCodeVerifier(value)).toBe(valid);
  });

  it('accepts the matching verifier only', () => {
    const challenge = s256(verifier);
    expect(isValidCodeChallenge(challenge)).toBe(true);
    expect(checkPkce(verifier, challenge)).toBe('OK');
    expect(checkPkce(`${verifier}x`, challenge)).toBe('MISMATCH');
    expect(checkPkce('short', challenge)).toBe('BAD_VERIFIER');
    expect(checkPkce(undefined, challenge)).toBe('BAD_VERIFIER');
  });
});

describe('redirect URIs', () => {
  const allowed = allowedOrigins('http://localhost:3000', ['https://shop.example'], ['https://other.example/path', 'junk', 7]);

  it('always allows PUBLIC_URL, then the client and site origins', () => {
    expect([...allowed].sort()).toEqual(['http://localhost:3000', 'https://other.example', 'https://shop.example']);
  });

  it.each([
    ['https://shop.example/callback', true],
    ['https://shop.example:443/callback?x=1', true],
    ['http://localhost:3000/auth/done', true],
    ['https://shop.example.evil.com/callback', false],
    ['https://evil.com/?https://shop.example', false],
    ['https://user:pw@shop.example/callback', false],
    ['javascript:alert(1)', false],
    ['/relative', false],
    ['http://shop.example/callback', false],
  ])('%s allowed: %s', (uri, expected) => {
    expect(isAllowedUrl(uri, allowed)).toBe(expected);
  });

  it('puts the answer in the query or the fragment', () => {
    expect(withParams('https://shop.example/cb?keep=1', { code: 'c', state: 's', none: undefined }, 'query')).toBe('https://shop.example/cb?keep=1&code=c&state=s');
    expect(withParams('https://shop.example/cb#old', { code: 'c', state: 's' }, 'fragment')).toBe('https://shop.example/cb#code=c&state=s');
  });
});
