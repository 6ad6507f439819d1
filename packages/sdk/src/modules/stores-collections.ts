/** `@wix/stores` collections (catalog v1 read). Paths are sent verbatim, as the official SDK does. */
import { call, enc } from '../core/generated.js';
import { STORES_COLLECTIONS as P } from '../core/paths.js';
import { PlatformQueryBuilder } from '../core/platform-query.js';
import type { Transport } from '../core/transport.js';
import type { QueryCollectionsResponse, StoresCollection } from '../types.js';

export interface CollectionsQuery {
  filter?: Record<string, unknown>;
  sort?: { fieldName: string; order?: 'ASC' | 'DESC' }[];
  paging?: { limit?: number; offset?: number };
}
export type { QueryCollectionsResponse } from '../types.js';

export function storesCollections(t: Transport) {
  const query = (request: CollectionsQuery) =>
    call<QueryCollectionsResponse>(t, 'GET', `${P}/query`, { query: request }, {
      args: { query: 'query' },
      complex: true,
      fallback: true,
    });

  function queryCollections(): PlatformQueryBuilder<StoresCollection>;
  function queryCollections(request: CollectionsQuery): Promise<QueryCollectionsResponse>;
  function queryCollections(
    request?: CollectionsQuery,
  ): PlatformQueryBuilder<StoresCollection> | Promise<QueryCollectionsResponse> {
    if (request) return query(request);
    return new PlatformQueryBuilder<StoresCollection>(async (built) => {
      const body = await query(built);
      return { items: body.collections ?? [], total: body.metadata?.total };
    });
  }

  return {
    queryCollections,
    getCollection: (_id: string) =>
      call<StoresCollection>(t, 'GET', `${P}/${enc(_id)}`, { id: _id }, { args: { id: '_id' }, pick: 'collection' }),
    getCollectionBySlug: (slug: string) =>
      call<{ collection?: StoresCollection }>(t, 'GET', `${P}/slug/${enc(slug)}`, { slug }),
  };
}
