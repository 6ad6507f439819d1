/** `@wix/data` collections: data collection CRUD. */
import { call, callVoid, enc } from '../core/generated.js';
import { DATA_COLLECTIONS as P } from '../core/paths.js';
import type { Transport } from '../core/transport.js';
import type { DataCollection, DataCollectionInput, ListDataCollectionsResponse, SortingEntry } from '../types.js';

export interface ListDataCollectionsOptions {
  paging?: { limit?: number; offset?: number };
  sort?: SortingEntry;
  consistentRead?: boolean;
}
const ID = { dataCollectionId: 'dataCollectionId', '*': 'options' };

export function dataCollections(t: Transport) {
  return {
    createDataCollection: (collection: DataCollectionInput) =>
      call<DataCollection>(t, 'POST', P, { collection }, { pick: 'collection' }),
    getDataCollection: (dataCollectionId: string, options: { consistentRead?: boolean } = {}) =>
      call<DataCollection>(t, 'GET', `${P}/${enc(dataCollectionId)}`, { dataCollectionId, ...options }, {
        args: ID,
        pick: 'collection',
      }),
    listDataCollections: (options: ListDataCollectionsOptions = {}) =>
      call<ListDataCollectionsResponse>(t, 'GET', P, { ...options }, {
        args: { '*': 'options' },
      }),
    updateDataCollection: (collection: DataCollectionInput) =>
      call<DataCollection>(t, 'PUT', P, { collection }, { pick: 'collection' }),
    deleteDataCollection: (dataCollectionId: string) =>
      callVoid(t, 'DELETE', `${P}/${enc(dataCollectionId)}`, { dataCollectionId }),
  };
}
