/** Sending data calls: `$date` encoding, error mapping, and the query GET/POST rule. */
import { DATA_ITEMS } from '../../core/paths.js';
import { encodedPayloadParam, type PlainObject } from '../../core/query-string.js';
import type { HttpMethod, Transport } from '../../core/transport.js';
import { decodeDates, encodeDates } from './dates.js';
import { dataError } from './wde.js';

/** `GET <path>?.r=<b64>` is used while it is at most this long; longer queries are POSTed (spec §9). */
export const MAX_GET_QUERY_URL = 2048;

export interface DataOptions {
  suppressAuth?: boolean;
  suppressHooks?: boolean;
  showDrafts?: boolean;
  consistentRead?: boolean;
  language?: string;
}

/** The wire form of the common options (`suppressAuth` is checked but never sent). */
export function readOptions(options: DataOptions | undefined): PlainObject {
  return {
    consistentRead: options?.consistentRead,
    language: options?.language,
    suppressHooks: options?.suppressHooks,
    publishPluginOptions: options?.showDrafts ? { includeDraftItems: true } : undefined,
  };
}

export function writeOptions(options: DataOptions | undefined): PlainObject {
  return {
    suppressHooks: options?.suppressHooks,
    publishPluginOptions: options?.showDrafts ? { includeDraftItems: true } : undefined,
  };
}

export async function dataRequest<T>(
  transport: Transport,
  method: HttpMethod,
  path: string,
  payload: PlainObject,
): Promise<T> {
  const encoded = encodeDates(payload) as PlainObject;
  const query = method === 'GET' ? { complex: true } : {};
  try {
    return decodeDates(await transport.send({ method, path: DATA_ITEMS + path, payload: encoded, ...query })) as T;
  } catch (error) {
    throw dataError(error);
  }
}

/** Queries go as `GET …/items/query?.r=<b64>` when that URL path is ≤ 2048 characters, else POST. */
export async function queryRequest<T>(transport: Transport, path: string, payload: PlainObject): Promise<T> {
  const fullPath = DATA_ITEMS + path;
  const encoded = encodeDates(payload) as PlainObject;
  const query = encodedPayloadParam(encoded);
  const useGet = `${fullPath}?${query}`.length <= MAX_GET_QUERY_URL;
  try {
    const body = await transport.send(
      useGet ? { method: 'GET', path: fullPath, query } : { method: 'POST', path: fullPath, payload: encoded },
    );
    return decodeDates(body) as T;
  } catch (error) {
    throw dataError(error);
  }
}
