import { describe, expect, it } from 'vitest';
import type { Tokens } from '../types.js';
import { cookieTokenStorage, emptyTokens, localStorageTokenStorage, memoryTokenStorage, type CookieJar } from './storage.js';

const TOKENS: Tokens = {
  accessToken: { value: 'ACCESS', expiresAt: 1_700_000_000 },
  refreshToken: { value: 'REFRESH', role: 'member' },
};

/** document.cookie semantics: writes one cookie (or deletes it with max-age=0), reads "a=b; c=d". */
function cookieJar(): CookieJar & { writes: string[] } {
  const cookies = new Map<string, string>();
  const writes: string[] = [];
  return {
    writes,
    get cookie() {
      return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    },
    set cookie(text: string) {
      writes.push(text);
      const [pair, ...attributes] = text.split('; ');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      if (attributes.includes('max-age=0')) cookies.delete(name);
      else cookies.set(name, pair.slice(index + 1));
    },
  };
}

function keyValue() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
}

describe('token storages', () => {
  it('memory storage starts empty (role none) and keeps what it is given', () => {
    const storage = memoryTokenStorage();
    expect(storage.getTokens()).toEqual(emptyTokens());
    expect(storage.getTokens().refreshToken.role).toBe('none');
    storage.setTokens(TOKENS);
    expect(storage.getTokens()).toEqual(TOKENS);
  });

  it('localStorage storage round-trips, removes empty tokens and ignores corrupt values', () => {
    const kv = keyValue();
    const storage = localStorageTokenStorage({ storage: kv, key: 'tokens' });
    storage.setTokens(TOKENS);
    expect(JSON.parse(kv.map.get('tokens') ?? '')).toEqual(TOKENS);
    expect(localStorageTokenStorage({ storage: kv, key: 'tokens' }).getTokens()).toEqual(TOKENS);
    storage.setTokens(emptyTokens());
    expect(kv.map.has('tokens')).toBe(false);
    kv.map.set('tokens', '{not json');
    expect(storage.getTokens()).toEqual(emptyTokens());
    kv.map.set('tokens', '{"accessToken":{"value":"a","expiresAt":1},"refreshToken":{"value":"r","role":"admin"}}');
    expect(storage.getTokens().refreshToken.role).toBe('none');
  });

  it('cookie storage writes path=/ by default and round-trips', () => {
    const jar = cookieJar();
    const storage = cookieTokenStorage({ document: jar });
    storage.setTokens(TOKENS);
    expect(jar.writes[0]).toMatch(/^bodega_tokens=[^;]+; path=\/$/);
    expect(storage.getTokens()).toEqual(TOKENS);
  });

  it('cookie storage honours name, path, domain, max-age, secure and samesite, and deletes on empty tokens', () => {
    const jar = cookieJar();
    jar.cookie = 'other=1; path=/';
    const storage = cookieTokenStorage({
      document: jar,
      name: 'auth',
      path: '/shop',
      domain: 'example.com',
      maxAgeSeconds: 3600,
      secure: true,
      sameSite: 'Lax',
    });
    storage.setTokens(TOKENS);
    expect(jar.writes[1]).toMatch(/; path=\/shop; domain=example\.com; max-age=3600; secure; samesite=Lax$/);
    expect(storage.getTokens()).toEqual(TOKENS);
    storage.setTokens(emptyTokens());
    expect(jar.writes[2]).toBe('auth=; path=/shop; domain=example.com; max-age=0; secure; samesite=Lax');
    expect(jar.cookie).toBe('other=1');
    expect(storage.getTokens()).toEqual(emptyTokens());
  });
});
