/**
 * The official @wix/sdk always calls https://www.wixapis.com (tokens, identity) and
 * https://edge.wixapis.com (module calls) with the global fetch. Tests point both at a local
 * Bodega server by rewriting those origins; `restore()` puts the real fetch back.
 */
const WIX_ORIGINS = ['https://www.wixapis.com', 'https://edge.wixapis.com'];

/**
 * Rewrites the official SDK's origins (and `extraOrigins`) to `localOrigin`. `calls` records
 * "METHOD /path" of each redirected request, `urls` the same with its query string.
 */
export function redirectWixFetch(localOrigin: string, extraOrigins: string[] = []): { restore(): void; calls: string[]; urls: string[] } {
  const realFetch = globalThis.fetch;
  const origins = [...WIX_ORIGINS, ...extraOrigins];
  const calls: string[] = [];
  const urls: string[] = [];
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const origin = origins.find((o) => url.startsWith(o));
    if (!origin) return realFetch(input, init);
    const local = localOrigin + url.slice(origin.length);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    urls.push(`${method} ${url.slice(origin.length)}`);
    calls.push(`${method} ${url.slice(origin.length).split('?')[0]}`);
    if (input instanceof Request) return realFetch(new Request(local, input), init);
    return realFetch(local, init);
  });
  return {
    calls,
    urls,
    restore() {
      globalThis.fetch = realFetch;
    },
  };
}

export async function listen(app: { listen(o: { port: number; host: string }): Promise<string>; server: { address(): unknown } }): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}
