/** createClient: binds modules to one transport and one auth strategy. */
import type { AuthStrategy } from './auth/strategy.js';
import { GRAPHQL } from './core/paths.js';
import { createTransport, type Transport } from './core/transport.js';

/**
 * A module is a function from the client's transport to an object of calls. createClient calls it
 * once, so `client.items.query(...)` runs against that client. Nothing runs at import time.
 */
export type Module<Api extends object = object> = (transport: Transport) => Api;

type BoundModules<M extends Record<string, Module>> = { [K in keyof M]: ReturnType<M[K]> };

export interface GraphQLError {
  message: string;
  path?: (string | number)[];
  locations?: { line: number; column: number }[];
  extensions?: Record<string, unknown>;
}

export interface GraphQLResult<Data> {
  data: Data;
  errors?: GraphQLError[];
}

export interface ClientOptions<M extends Record<string, Module>, A extends AuthStrategy | undefined> {
  modules?: M;
  auth?: A;
  /** Origin of the Bodega server, e.g. `http://localhost:3000` (http and https are both fine). */
  baseUrl: string;
  /** Extra headers sent with every module call. */
  headers?: Record<string, string>;
  /** Defaults to `globalThis.fetch`. */
  fetch?: typeof fetch;
}

export interface ClientCore<A> {
  auth: A;
  graphql<Data = unknown, Variables extends object = Record<string, unknown>>(
    query: string | { toString(): string },
    variables?: Variables,
    options?: { apiVersion?: string },
  ): Promise<GraphQLResult<Data>>;
  fetchWithAuth(url: string | URL, init?: RequestInit): Promise<Response>;
  setHeaders(headers: Record<string, string>): void;
  /**
   * The module bound to this client, bound on first use and the same object after (as `@wix/sdk`'s
   * `client.use(module)`): code that imports a module only where it calls it keeps the other modules
   * out of its bundle, where `modules` binds (and so imports) every module up front.
   */
  use<Api extends object>(module: Module<Api>): Api;
}

export type BodegaClient<M extends Record<string, Module>, A> = BoundModules<M> & ClientCore<A>;

export function createClient<
  M extends Record<string, Module> = Record<never, Module>,
  A extends AuthStrategy | undefined = undefined,
>(options: ClientOptions<M, A>): BodegaClient<M, A> {
  const transport = createTransport({
    baseUrl: options.baseUrl,
    headers: options.headers,
    auth: options.auth,
    fetch: options.fetch,
  });
  options.auth?.connect?.(transport);

  const bound: Record<string, object> = {};
  for (const [name, module] of Object.entries(options.modules ?? {})) bound[name] = module(transport);
  const used = new Map<Module, object>();

  const core: ClientCore<A> = {
    auth: options.auth as A,
    async graphql<Data, Variables extends object>(
      query: string | { toString(): string },
      variables?: Variables,
      { apiVersion = 'alpha' }: { apiVersion?: string } = {},
    ) {
      const body = await transport.send<GraphQLResult<Data>>({
        method: 'POST',
        path: `${GRAPHQL}/${apiVersion}`,
        payload: { query: String(query), variables },
      });
      return { data: body.data, errors: body.errors };
    },
    fetchWithAuth: (url, init) => transport.fetchWithAuth(url, init),
    setHeaders: (headers) => transport.setHeaders(headers),
    use<Api extends object>(module: Module<Api>): Api {
      let api = used.get(module);
      if (!api) {
        api = module(transport);
        used.set(module, api);
      }
      return api as Api;
    },
  };
  return Object.assign(bound, core) as BodegaClient<M, A>;
}
