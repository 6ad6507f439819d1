/** HTTP transport shared by every module: URL and body placement, auth headers, error shape. */
import { BodegaError, errorFromResponse } from './errors.js';
import { toQueryString, type PlainObject } from './query-string.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A GET with a POST form (`fallback`) whose query string is longer than this is sent as POST with
 * a JSON body to the same path (spec §7, §9; wire-surface §1.4).
 */
export const GET_FALLBACK_THRESHOLD = 4000;

export interface WireRequest {
  method: HttpMethod;
  /** Path below the base URL, already resolved (`/_api/ecom-cart/v1/carts/current`). */
  path: string;
  payload?: PlainObject;
  /** Send nested GET/DELETE payloads as one `.r` parameter. */
  complex?: boolean;
  /** A ready-made query string for GET, used instead of encoding `payload`. */
  query?: string;
  /** Add the auth strategy's headers (default true). */
  auth?: boolean;
  /**
   * The call has a POST form at the same path (stores product and collection queries): a GET
   * whose query string exceeds 4000 characters is sent as that POST. Other GETs stay GETs — at
   * most of their paths a POST is another call (`GET /members` lists, `POST /members` creates).
   */
  fallback?: boolean;
}

export interface AuthHeaders {
  headers: Record<string, string>;
}

export interface AuthHeaderSource {
  getAuthHeaders(): Promise<AuthHeaders>;
}

export interface Transport {
  readonly baseUrl: string;
  /** Sends a request and resolves to the parsed JSON body of an HTTP 200 answer. */
  send<T>(request: WireRequest): Promise<T>;
  /** A plain fetch below the base URL, without auth and without error mapping. */
  raw(path: string, init: RequestInit): Promise<Response>;
  /** Fetches an absolute URL with the auth headers added. */
  fetchWithAuth(url: string | URL, init?: RequestInit): Promise<Response>;
  setHeaders(headers: Record<string, string>): void;
  /** The headers a request sends (the client's and the auth strategy's), for a request made outside `send` (an upload with progress). */
  requestHeaders(): Promise<Record<string, string>>;
  /**
   * Sends a file as the raw body of a POST (its type as Content-Type) and resolves to the JSON of
   * the 200 answer. In a browser it goes by XMLHttpRequest, whose upload events report progress
   * (fetch has none); elsewhere by fetch, with one progress call at the end.
   */
  upload<T>(request: UploadRequest): Promise<T>;
}

export interface UploadRequest {
  path: string;
  query?: string;
  body: Blob;
  contentType: string;
  onProgress?: (sent: number, total: number) => void;
}

export interface TransportOptions {
  baseUrl: string;
  headers?: Record<string, string>;
  auth?: AuthHeaderSource;
  fetch?: typeof fetch;
}

const REQUEST_ID = 'x-wix-request-id';
const CONSISTENT = 'x-wix-consistent';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function createTransport(options: TransportOptions): Transport {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = (input: string | URL, init: RequestInit): Promise<Response> =>
    (options.fetch ?? globalThis.fetch)(input, init);
  let headers: Record<string, string> = { ...options.headers };
  // Read-your-writes: a consistency token from any answer is echoed on later requests.
  let consistent: string | undefined;

  async function authHeaders(): Promise<Record<string, string>> {
    return options.auth ? (await options.auth.getAuthHeaders()).headers : {};
  }

  async function send<T>(request: WireRequest): Promise<T> {
    let method = request.method;
    let url = baseUrl + request.path;
    let body: string | undefined;
    if (method === 'GET' || method === 'DELETE') {
      const query = request.query ?? (request.payload ? toQueryString(request.payload, request.complex) : '');
      if (method === 'GET' && request.fallback && query.length > GET_FALLBACK_THRESHOLD) {
        method = 'POST';
        body = JSON.stringify(request.payload ?? {});
      } else if (query) {
        url += `?${query}`;
      }
    } else {
      body = JSON.stringify(request.payload ?? {});
    }
    const requestHeaders: Record<string, string> = { ...headers };
    if (consistent) requestHeaders['X-Wix-Consistent'] = consistent;
    if (request.auth !== false) Object.assign(requestHeaders, await authHeaders());
    if (body !== undefined) requestHeaders['Content-Type'] = 'application/json';

    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, { method, headers: requestHeaders, body });
      text = await response.text();
    } catch (cause) {
      throw new BodegaError(`System error occurred: ${cause instanceof Error ? cause.message : String(cause)}`, {
        code: 'UNKNOWN',
        cause,
      });
    }
    const requestId = response.headers.get(REQUEST_ID) ?? undefined;
    consistent = response.headers.get(CONSISTENT) ?? consistent;
    const parsed = parseJson(text);
    if (response.status !== 200) throw errorFromResponse(response.status, response.statusText, requestId, parsed);
    if (parsed === undefined) {
      throw new BodegaError('System error occurred: the response is not JSON', { code: 'UNKNOWN', requestId });
    }
    return parsed as T;
  }

  return {
    baseUrl,
    send,
    raw: (path, init) => doFetch(baseUrl + path, init),
    async fetchWithAuth(url, init = {}) {
      const merged = new Headers(init.headers);
      for (const [name, value] of Object.entries(await authHeaders())) merged.set(name, value);
      return doFetch(url, { ...init, headers: merged });
    },
    setHeaders(next) {
      headers = { ...headers, ...next };
    },
    async requestHeaders() {
      return { ...headers, ...(await authHeaders()) };
    },
    async upload<T>(request: UploadRequest): Promise<T> {
      const url = `${baseUrl}${request.path}${request.query ? `?${request.query}` : ''}`;
      const requestHeaders: Record<string, string> = { ...headers, ...(await authHeaders()), 'Content-Type': request.contentType };
      const answer = typeof XMLHttpRequest === 'function' && !options.fetch
        ? await xhrPost(url, requestHeaders, request)
        : await doFetch(url, { method: 'POST', headers: requestHeaders, body: request.body }).then(async (r) => {
          request.onProgress?.(request.body.size, request.body.size);
          return { status: r.status, statusText: r.statusText, requestId: r.headers.get(REQUEST_ID) ?? undefined, text: await r.text() };
        }).catch((cause: unknown) => {
          throw new BodegaError(`System error occurred: ${cause instanceof Error ? cause.message : String(cause)}`, { code: 'UNKNOWN', cause });
        });
      const parsed = parseJson(answer.text);
      if (answer.status !== 200) throw errorFromResponse(answer.status, answer.statusText, answer.requestId, parsed);
      return parsed as T;
    },
  };
}

interface PlainAnswer {
  status: number;
  statusText: string;
  requestId: string | undefined;
  text: string;
}

function xhrPost(url: string, headers: Record<string, string>, request: UploadRequest): Promise<PlainAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => request.onProgress?.(event.loaded, event.lengthComputable ? event.total : request.body.size);
    xhr.onload = () => resolve({ status: xhr.status, statusText: xhr.statusText, requestId: xhr.getResponseHeader(REQUEST_ID) ?? undefined, text: xhr.responseText });
    xhr.onerror = () => reject(new BodegaError('System error occurred: the upload did not reach the server', { code: 'UNKNOWN' }));
    xhr.send(request.body);
  });
}
