import { describe, expect, it } from 'vitest';
import { codeChallengeS256, createCodeVerifier, VERIFIER_ALPHABET } from './pkce.js';

const ALPHABET = /^[A-Za-z0-9\-._~]+$/;

describe('PKCE', () => {
  it('makes a 43-character verifier by default, from letters, digits and - . _ ~', () => {
    const verifier = createCodeVerifier();
    expect(verifier).toHaveLength(43);
    expect(verifier).toMatch(ALPHABET);
  });

  it('accepts every length from 43 to 128', () => {
    for (const length of [43, 44, 64, 127, 128]) expect(createCodeVerifier(length)).toHaveLength(length);
  });

  it.each([0, 42, 129, 43.5, Number.NaN])('rejects length %s', (length) => {
    expect(() => createCodeVerifier(length)).toThrow(new Error('Expected a length between 43 and 128'));
  });

  it('uses the whole alphabet and nothing else', () => {
    const seen = new Set(createCodeVerifier(128) + createCodeVerifier(128) + createCodeVerifier(128) + createCodeVerifier(128));
    for (let i = 0; i < 40; i += 1) for (const c of createCodeVerifier(128)) seen.add(c);
    expect([...seen].every((c) => VERIFIER_ALPHABET.includes(c))).toBe(true);
    expect(seen.size).toBe(66);
  });

  it('makes different verifiers each time', () => {
    expect(createCodeVerifier()).not.toBe(createCodeVerifier());
  });

  it('computes the S256 challenge of RFC 7636 appendix B', async () => {
    expect(await codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });
});
