/** `@wix/data` indexes: create, list with their status, and drop a data collection's indexes. */
import { call, callVoid } from '../core/generated.js';
import { DATA_ITEMS } from '../core/paths.js';
import type { Transport } from '../core/transport.js';
import type { DataIndex as DataIndexAnswer, ListDataIndexesResponse } from '../generated/data-items.js';

export interface DataIndexField {
  /** A field key or a path inside one, e.g. `title` or `options.price`. */
  path: string;
  order?: 'ASC' | 'DESC';
}

/** BUILDING until it can be used, then ACTIVE; FAILED keeps its slot until dropped. */
export type DataIndexStatus = 'BUILDING' | 'ACTIVE' | 'FAILED' | 'DROPPING' | 'DROPPED' | 'UNKNOWN';

/** An index to create, or one as listed (the answers are `DataIndexAnswer`s, which fit it). */
export interface DataIndex {
  name: string;
  fields: DataIndexField[];
  status?: DataIndexStatus;
  unique?: boolean;
  caseInsensitive?: boolean;
  source?: string;
  failure?: { code?: string; description?: string };
}

const P = `${DATA_ITEMS}/indexes`;

export function dataIndexes(t: Transport) {
  return {
    createIndex: (dataCollectionId: string, index: DataIndex) =>
      call<DataIndexAnswer>(t, 'POST', P, { dataCollectionId, index: { ...index } }, {
        args: { dataCollectionId: 'dataCollectionId', index: 'index' },
        pick: 'index',
      }),
    dropIndex: (dataCollectionId: string, indexName: string) =>
      callVoid(t, 'DELETE', P, { dataCollectionId, indexName }, { args: { dataCollectionId: 'dataCollectionId', indexName: 'indexName' } }),
    listIndexes: (dataCollectionId: string) =>
      call<ListDataIndexesResponse>(t, 'GET', P, { dataCollectionId }, {
        args: { dataCollectionId: 'dataCollectionId' },
      }),
  };
}
