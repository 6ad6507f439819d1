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
