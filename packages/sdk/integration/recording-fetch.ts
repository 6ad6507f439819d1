/**
 * A `fetch` for `createClient({ fetch })` that passes every request to the real fetch and keeps
 * a line per request (method, path, query length), so tests can check which form the SDK chose.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string without `?` ('' when none). */
  query: string;
  /** Length of `path?query` (what the 2048-character rule measures). */
  pathAndQueryLength: number;
  body?: string;
  status: number;
  statusText: string;
  /** The answer's `x-wix-request-id`. */
  requestId: string | null;
  /** The answer's body text. */
  responseText: string;
}

export function recordingFetch(): { fetch: typeof fetch; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const recorder = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const response = await fetch(input, init);
    const query = url.search.replace(/^\?/, '');
    requests.push({
      method: init?.method ?? 'GET',
      path: url.pathname,
      query,
      pathAndQueryLength: url.pathname.length + (query ? query.length + 1 : 0),
      body: typeof init?.body === 'string' ? init.body : undefined,
      status: response.status,
      statusText: response.statusText,
      requestId: response.headers.get('x-wix-request-id'),
      responseText: await response.clone().text(),
    });
    return response;
  };
  return { fetch: recorder, requests };
}
