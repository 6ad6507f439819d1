import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { keyring, secretKey } from '../../platform/secrets.js';
import { contentDisposition, parseRange, signLink, verifyLink } from './links.js';

const older = secretKey(randomBytes(32));
const ring = keyring(secretKey(randomBytes(32)), [older]);
const claims = { siteId: 'site-1', grantId: 'grant-1', expiresAt: new Date('2026-05-08T10:00:00.000Z') };

describe('signed download links', () => {
  it('verifies what it signed, also under a previous key', () => {
    expect(verifyLink(ring, signLink(ring, claims))).toEqual(claims);
    expect(verifyLink(ring, signLink(keyring(older), claims))).toEqual(claims);
  });

  it('refuses a link signed by another key, a changed character, or junk', () => {
    const token = signLink(ring, claims);
    expect(verifyLink(ring, signLink(keyring(secretKey(randomBytes(32))), claims))).toBeUndefined();
    for (let at = 0; at < token.length; at += 7) {
      if (token[at] === '.') continue;
      const changed = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
      expect(verifyLink(ring, changed), changed).toBeUndefined();
    }
    for (const junk of ['', '.', 'abc', 'a.b.c', `${token}.x`]) expect(verifyLink(ring, junk)).toBeUndefined();
  });
});

describe('contentDisposition', () => {
  it.each([
    ['guide.pdf', 'attachment; filename="guide.pdf"; filename*=UTF-8\'\'guide.pdf'],
    ['Café menu.pdf', 'attachment; filename="Cafe menu.pdf"; filename*=UTF-8\'\'Caf%C3%A9%20menu.pdf'],
    ['a"b;c%.zip', 'attachment; filename="a_b_c_.zip"; filename*=UTF-8\'\'a%22b%3Bc%25.zip'],
    ['../../etc\r\npasswd', 'attachment; filename=".._.._etc__passwd"; filename*=UTF-8\'\'.._.._etc__passwd'],
    ['日本.pdf', 'attachment; filename=".pdf"; filename*=UTF-8\'\'%E6%97%A5%E6%9C%AC.pdf'],
  ])('%s', (name, header) => {
    expect(contentDisposition(name)).toBe(header);
  });
});

describe('parseRange', () => {
  it.each([
    [undefined, { kind: 'all' }],
    ['bytes=0-9', { kind: 'part', start: 0, end: 9 }],
    ['bytes=90-', { kind: 'part', start: 90, end: 99 }],
    ['bytes=-10', { kind: 'part', start: 90, end: 99 }],
    ['bytes=-500', { kind: 'part', start: 0, end: 99 }],
    ['bytes=50-5000', { kind: 'part', start: 50, end: 99 }],
    ['bytes=100-', { kind: 'unsatisfiable' }],
    ['bytes=9-3', { kind: 'all' }],
    ['bytes=0-1,5-6', { kind: 'all' }],
    ['items=0-1', { kind: 'all' }],
  ] as const)('%s', (header, answer) => {
    expect(parseRange(header, 100)).toEqual(answer);
  });
});
