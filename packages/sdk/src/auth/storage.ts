/** Where OAuthStrategy keeps its tokens: memory (default), localStorage or a cookie. */
import type { Tokens } from '../types.js';

export interface TokenStorage {
  getTokens(): Tokens;
  setTokens(tokens: Tokens): void;
}

export function emptyTokens(): Tokens {
  return { accessToken: { value: '', expiresAt: 0 }, refreshToken: { value: '', role: 'none' } };
}

function isEmpty(tokens: Tokens): boolean {
  return !tokens.accessToken.value && !tokens.refreshToken.value;
}

function parseTokens(text: string | null | undefined): Tokens {
  if (!text) return emptyTokens();
  try {
    const value = JSON.parse(text) as Partial<Tokens> | null;
    const access = value?.accessToken;
    const refresh = value?.refreshToken;
    if (typeof access?.value !== 'string' || typeof refresh?.value !== 'string') return emptyTokens();
    const role = refresh.role === 'visitor' || refresh.role === 'member' ? refresh.role : 'none';
    return {
      accessToken: { value: access.value, expiresAt: Number(access.expiresAt) || 0 },
      refreshToken: { value: refresh.value, role },
    };
  } catch {
    return emptyTokens();
  }
}

export function memoryTokenStorage(initial?: Tokens): TokenStorage {
  let tokens = initial ?? emptyTokens();
  return {
    getTokens: () => tokens,
    setTokens(next) {
      tokens = next;
    },
  };
}

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface LocalStorageTokenStorageOptions {
  key?: string;
  /** Defaults to `globalThis.localStorage`. */
  storage?: KeyValueStorage;
}

export function localStorageTokenStorage(options: LocalStorageTokenStorageOptions = {}): TokenStorage {
  const key = options.key ?? 'bodega_tokens';
  const storage = (): KeyValueStorage => options.storage ?? globalThis.localStorage;
  return {
    getTokens: () => parseTokens(storage().getItem(key)),
    setTokens(tokens) {
      if (isEmpty(tokens)) storage().removeItem(key);
      else storage().setItem(key, JSON.stringify(tokens));
    },
  };
}

export interface CookieJar {
  cookie: string;
}

export interface CookieTokenStorageOptions {
  name?: string;
  /** Defaults to `/`. */
  path?: string;
  domain?: string;
  maxAgeSeconds?: number;
  secure?: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  /** Defaults to `globalThis.document`. */
  document?: CookieJar;
}

export function cookieTokenStorage(options: CookieTokenStorageOptions = {}): TokenStorage {
  const name = options.name ?? 'bodega_tokens';
  const jar = (): CookieJar => options.document ?? globalThis.document;
  const attributes = (maxAge: number | undefined): string =>
    [
      `path=${options.path ?? '/'}`,
      options.domain && `domain=${options.domain}`,
      maxAge !== undefined && `max-age=${maxAge}`,
      options.secure && 'secure',
      options.sameSite && `samesite=${options.sameSite}`,
    ]
      .filter(Boolean)
      .join('; ');
  return {
    getTokens() {
      const prefix = `${name}=`;
      const entry = jar()
        .cookie.split(/;\s*/)
        .find((part) => part.startsWith(prefix));
      if (!entry) return emptyTokens();
      try {
        return parseTokens(decodeURIComponent(entry.slice(prefix.length)));
      } catch {
        return emptyTokens();
      }
    },
    setTokens(tokens) {
      jar().cookie = isEmpty(tokens)
        ? `${name}=; ${attributes(0)}`
        : `${name}=${encodeURIComponent(JSON.stringify(tokens))}; ${attributes(options.maxAgeSeconds)}`;
    },
  };
}
