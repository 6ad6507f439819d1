// The data collection answers (@wix/data collections): they write the wire and are the SDK's DataCollection.
import { Type } from 'typebox';
import { oneOf, Timestamp } from '../../platform/wire-schema.js';
import { FIELD_TYPES } from './collections.js';
import { OPERATIONS, ROLES } from './permissions.js';

export const DataField = Type.Object({
  key: Type.String(),
  type: oneOf(FIELD_TYPES),
  systemField: Type.Boolean(),
  capabilities: Type.Object({
    sortable: Type.Boolean(),
    queryOperators: Type.Array(Type.String()),
  }),
}, {
  title: 'DataField',
  additionalProperties: true,
  description: 'A field of the collection: the system fields, then the fields as they were defined (displayName, typeMetadata … kept as given).',
});

export const DataCollection = Type.Object({
  id: Type.String(),
  collectionType: oneOf(['NATIVE'] as const),
  ownerAppId: Type.Null(),
  maxPageSize: Type.Integer(),
  displayName: Type.String(),
  displayField: Type.Union([Type.String(), Type.Null()]),
  displayNamespace: Type.Null(),
  capabilities: Type.Object({
    dataOperations: Type.Array(Type.String()),
    collectionOperations: Type.Array(Type.String()),
    indexLimits: Type.Object({ regular: Type.Integer(), unique: Type.Integer(), total: Type.Integer() }),
  }),
  fields: Type.Array(DataField),
  permissions: Type.Object(Object.fromEntries(OPERATIONS.map((op) => [op, oneOf(ROLES)])), {
    description: 'For each operation the lowest role that may perform it.',
  }),
  revision: Type.String(),
  plugins: Type.Array(Type.Object({ type: Type.String() }), { description: 'Always empty: no collection plugins.' }),
  pagingModes: Type.Array(Type.String()),
  createdDate: Timestamp,
  updatedDate: Timestamp,
}, { title: 'DataCollection' });

export const DataCollectionResponse = Type.Object({ collection: DataCollection }, { title: 'DataCollectionResponse' });
export const DataCollectionFieldResponse = Type.Object({ dataCollection: DataCollection }, { title: 'DataCollectionFieldResponse' });
export const ListDataCollectionsResponse = Type.Object({
  collections: Type.Array(DataCollection),
  pagingMetadata: Type.Object({ count: Type.Integer(), offset: Type.Integer(), total: Type.Integer(), tooManyToCount: Type.Boolean() }),
}, { title: 'ListDataCollectionsResponse' });
export const Empty = Type.Object({});

// The single-item answers of @wix/data items. An item's data is the collection's own (schemaless):
// written as it is stored, with `$date` values and references as they are.
export const DataItem = Type.Object({
  id: Type.String(),
  dataCollectionId: Type.String(),
  data: Type.Object({}, { additionalProperties: true, description: "The item's fields, with `_id`, `_createdDate`, `_updatedDate` and `_owner`." }),
}, { title: 'WireDataItem' });
export const DataItemResponse = Type.Object({ dataItem: DataItem }, { title: 'DataItemResponse' });
export const CountResponse = Type.Object({ totalCount: Type.Integer() }, { title: 'CountDataItemsResponse' });
export const JobResponse = Type.Object({ jobId: Type.String() }, { title: 'DataJobResponse' });
export const IsReferencedResponse = Type.Object({ isReferenced: Type.Boolean() }, { title: 'IsReferencedResponse' });

// The page answers of @wix/data items (query, search, distinct values, aggregate, referenced items).
// `total` and `tooManyToCount` come only when the request asked for the total count.
export const DataPagingMetadata = Type.Object({
  count: Type.Integer(),
  offset: Type.Integer(),
  total: Type.Optional(Type.Integer()),
  tooManyToCount: Type.Optional(Type.Boolean()),
  hasNext: Type.Boolean(),
  cursors: Type.Object({ next: Type.Optional(Type.String()), prev: Type.Optional(Type.String()) }),
}, { title: 'DataPagingMetadata' });
export const DataItemsPage = Type.Object({ dataItems: Type.Array(DataItem), pagingMetadata: DataPagingMetadata }, { title: 'QueryDataItemsResponse' });
export const DistinctValuesPage = Type.Object({
  distinctValues: Type.Array(Type.Unknown(), { description: "The field's distinct values, as stored (a `$date` object for a date)." }),
  pagingMetadata: DataPagingMetadata,
}, { title: 'QueryDistinctValuesResponse' });
export const AggregatePage = Type.Object({
  results: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: 'One object per group: its group keys and the named results.' }),
  pagingMetadata: DataPagingMetadata,
}, { title: 'AggregateDataItemsResponse' });

const BULK_ACTIONS = ['INSERT', 'UPDATE', 'PATCH', 'DELETE'] as const;

const BulkActionMetadata = Type.Object({
  totalSuccesses: Type.Integer(),
  totalFailures: Type.Integer(),
  undetailedFailures: Type.Integer(),
}, { title: 'BulkActionMetadata' });

// The bulk item answers: one result per item given, in order; the item only when asked (returnEntity).
export const BulkDataItemResult = Type.Object({
  action: oneOf(BULK_ACTIONS),
  itemMetadata: Type.Object({
    originalIndex: Type.Integer(),
    id: Type.Optional(Type.String()),
    success: Type.Boolean(),
    error: Type.Optional(Type.Object({
      code: Type.String(),
      description: Type.String(),
      data: Type.Record(Type.String(), Type.Unknown()),
    }, { title: 'BulkItemError' })),
  }, { title: 'BulkItemMetadata' }),
  dataItem: Type.Optional(DataItem),
}, { title: 'BulkDataItemResult' });
export const BulkDataItemsResponse = Type.Object({
  results: Type.Array(BulkDataItemResult),
  bulkActionMetadata: BulkActionMetadata,
}, { title: 'BulkDataItemsResponse' });

// The reference answers: each reference echoed as the request gave it.
export const DataItemReference = Type.Object({
  referringItemFieldName: Type.Optional(Type.Unknown()),
  referringItemId: Type.Optional(Type.Unknown()),
  referencedItemId: Type.Optional(Type.Unknown()),
}, { title: 'DataItemReference' });
export const BulkReferencesResponse = Type.Object({
  results: Type.Array(Type.Object({
    action: oneOf(BULK_ACTIONS),
    referenceMetadata: Type.Object({ originalIndex: Type.Integer(), success: Type.Boolean() }),
    dataItemReference: DataItemReference,
  }, { title: 'BulkDataItemReferenceResult' })),
  bulkActionMetadata: BulkActionMetadata,
}, { title: 'BulkDataItemReferencesResponse' });
export const ReferencedItemsPage = Type.Object({
  results: Type.Array(Type.Object({
    referringItemId: Type.String(),
    dataItem: Type.Optional(DataItem),
    unresolvedReference: Type.Optional(Type.Object({
      referringItemId: Type.String(),
      referringItemFieldName: Type.Optional(Type.Unknown()),
      referencedItemId: Type.String(),
      unauthorized: Type.Boolean(),
    }, { title: 'UnresolvedReference' })),
  }, { title: 'ReferencedResult', description: 'The referenced item, or why it is not given (missing, or not readable by the caller).' })),
  pagingMetadata: DataPagingMetadata,
}, { title: 'QueryReferencedDataItemsResponse' });

export const JobStatusResponse = Type.Object({
  status: oneOf(['INITIALIZED', 'PROCESSING', 'SUCCEEDED', 'FAILED'] as const),
  successCount: Type.Integer(),
}, { title: 'DataJobStatus' });

// The index answers of @wix/data indexes.
export const DataIndex = Type.Object({
  name: Type.String(),
  fields: Type.Array(Type.Object({ path: Type.String(), order: oneOf(['ASC', 'DESC'] as const) })),
  status: oneOf(['BUILDING', 'ACTIVE', 'FAILED'] as const),
  unique: Type.Boolean(),
  caseInsensitive: Type.Boolean(),
  source: oneOf(['USER'] as const),
  failure: Type.Optional(Type.Object({ code: Type.String(), description: Type.String() })),
}, { title: 'DataIndex' });
export const DataIndexResponse = Type.Object({ index: DataIndex }, { title: 'DataIndexResponse' });
export const DataIndexesPage = Type.Object({
  indexes: Type.Array(DataIndex),
  pagingMetadata: Type.Object({ count: Type.Integer(), offset: Type.Integer(), total: Type.Integer(), tooManyToCount: Type.Boolean() }),
}, { title: 'ListDataIndexesResponse' });
export const AvailableIndexes = Type.Object({
  regular1Field: Type.Integer(), regular3Field: Type.Integer(), unique1Field: Type.Integer(), total: Type.Integer(),
}, { title: 'AvailableDataIndexes' });
