/**
 * Which redirect URIs a client may use: those on an allowed origin. The server's own PUBLIC_URL
 * origin is always allowed; the OAuth client's allowed origins (`sites create --allowed-origin`)
 * and the site setting `allowedOrigins` add more.
 */
export function allowedOrigins(publicUrl: string, clientOrigins: readonly string[], siteOrigins: unknown): Set<string> {
  const origins = new Set<string>([new URL(publicUrl).origin]);
  for (const origin of clientOrigins) {
    const normalised = originOf(origin);
    if (normalised) origins.add(normalised);
  }
  if (Array.isArray(siteOrigins)) {
    for (const origin of siteOrigins) {
      const normalised = typeof origin === 'string' ? originOf(origin) : undefined;
      if (normalised) origins.add(normalised);
    }
  }
  return origins;
}

/** The origin of an http(s) URL, or undefined when the text is not one. */
export function originOf(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.origin;
}

/** An absolute http(s) URL without credentials, on one of the allowed origins. */
export function isAllowedUrl(text: unknown, allowed: ReadonlySet<string>): text is string {
  if (typeof text !== 'string' || text.length > 2048) return false;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username || url.password) return false;
  return allowed.has(url.origin);
}

export type ResponseMode = 'query' | 'fragment';

/** The redirect URI with the authorization answer in its query or its fragment. */
export function withParams(redirectUri: string, params: Record<string, string | undefined>, mode: ResponseMode): string {
  const url = new URL(redirectUri);
  const entries = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined);
  if (mode === 'query') {
    for (const [key, value] of entries) url.searchParams.set(key, value);
    return url.toString();
  }
  url.hash = new URLSearchParams(entries).toString();
  return url.toString();
}
