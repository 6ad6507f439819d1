/**
 * Collection definitions, pure: reading the wire `collection` and writing it back. The field list
 * describes items (the CMS shows it, references resolve through it) but is not enforced: items
 * are schemaless and unknown fields are stored as given.
 */
import { DATA_COLLECTION_ID_PATTERN, DATA_COLLECTION_LIMITS, DATA_FIELD_KEY_PATTERN, DATA_FIELD_TYPES, DATA_SYSTEM_FIELD_KEYS } from '../../platform/field-limits.js';
import { DataErrors } from './errors.js';
import { readPermissions, type Permissions } from './permissions.js';
import { isPlainObject, type JsonObject } from './wire-values.js';

/** The field types (platform/field-limits.ts, which the back office's field table reads too). */
export const FIELD_TYPES = DATA_FIELD_TYPES;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A collection id: letters, digits, "_" and "-", at most 256; it appears in URL paths. */
export const COLLECTION_ID = new RegExp(DATA_COLLECTION_ID_PATTERN);
const FIELD_KEY = new RegExp(DATA_FIELD_KEY_PATTERN);
const MAX_FIELDS = DATA_COLLECTION_LIMITS.fields;

/** A user field as stored: the wire field minus what the server computes. */
export type StoredField = JsonObject & { key: string; type: FieldType };

export interface CollectionDefinition {
  id: string;
  displayName: string | null;
  displayField: string | null;
  fields: StoredField[];
  permissions: Permissions;
}

export interface StoredCollection extends CollectionDefinition {
  revision: number;
  createdAt: Date;
  updatedAt: Date;
}

const invalid = DataErrors.invalidCollection;

export function readCollectionId(value: unknown): string {
  if (typeof value !== 'string' || !COLLECTION_ID.test(value)) {
    throw invalid(`Invalid collection id [${String(value)}]: use letters, digits, "_" and "-", at most 256 characters.`);
  }
  return value;
}

/** Reads a whole collection (create, or the full replacement an update sends). */
export function readCollection(wire: unknown, base?: Permissions): CollectionDefinition & { revision?: string } {
  if (!isPlainObject(wire)) throw invalid('collection should be an object.');
  const fields = readFields(wire.fields);
  const revision = wire.revision;
  return {
    id: readCollectionId(wire.id),
    displayName: optionalText('displayName', wire.displayName),
    displayField: optionalText('displayField', wire.displayField),
    fields,
    permissions: readPermissions(wire.permissions, base),
    ...(typeof revision === 'string' || typeof revision === 'number' ? { revision: String(revision) } : {}),
  };
}

function optionalText(name: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > DATA_COLLECTION_LIMITS.text) throw invalid(`${name} should be a string of at most ${DATA_COLLECTION_LIMITS.text} characters.`);
  return value;
}

/** User fields; system fields a client echoes back (from a get) are dropped, not refused. */
export function readFields(wire: unknown): StoredField[] {
  if (wire === undefined || wire === null) return [];
  if (!Array.isArray(wire) || wire.length > MAX_FIELDS) throw invalid(`fields should be an array of at most ${MAX_FIELDS} fields.`);
  const fields = wire.filter((field) => !(isPlainObject(field) && (field.systemField === true || SYSTEM_KEYS.has(String(field.key))))).map(readField);
  const keys = new Set<string>();
  for (const field of fields) {
    if (keys.has(field.key)) throw invalid(`Field [${field.key}] is defined twice.`);
    keys.add(field.key);
  }
  return fields;
}

export function readField(wire: unknown): StoredField {
  if (!isPlainObject(wire)) throw invalid('Each field should be an object.');
  const { key, type } = wire;
  if (typeof key !== 'string' || !FIELD_KEY.test(key)) {
    throw invalid(`Invalid field key [${String(key)}]: use letters, digits, "_", "$" and "-", at most 128 characters.`);
  }
  if (SYSTEM_KEYS.has(key)) throw invalid(`[${key}] is a system field.`);
  if (!(FIELD_TYPES as readonly unknown[]).includes(type)) {
    throw invalid(`Field [${key}] has an unknown type [${String(type)}]. Use one of ${FIELD_TYPES.join(', ')}.`);
  }
  const stored: JsonObject = {};
  for (const [name, value] of Object.entries(wire)) {
    if (name === 'systemField' || name === 'capabilities' || value === undefined) continue;
    stored[name] = value as JsonObject[string];
  }
  const field = stored as StoredField;
  if (field.type === 'REFERENCE' || field.type === 'MULTI_REFERENCE') referencedCollection(field);
  return field;
}

export interface ReferenceField {
  kind: 'REFERENCE' | 'MULTI_REFERENCE';
  referencedCollectionId: string;
}

function referencedCollection(field: StoredField): string {
  const metadata = isPlainObject(field.typeMetadata) ? field.typeMetadata : {};
  const holder = field.type === 'REFERENCE' ? metadata.reference : metadata.multiReference;
  const id = isPlainObject(holder) ? holder.referencedCollectionId : undefined;
  const where = field.type === 'REFERENCE' ? 'typeMetadata.reference' : 'typeMetadata.multiReference';
  if (typeof id !== 'string' || !COLLECTION_ID.test(id)) throw invalid(`Field [${field.key}] needs ${where}.referencedCollectionId.`);
  return id;
}

export function referenceField(fields: readonly StoredField[], key: string): ReferenceField | undefined {
  const field = fields.find((candidate) => candidate.key === key);
  if (!field || (field.type !== 'REFERENCE' && field.type !== 'MULTI_REFERENCE')) return undefined;
  return { kind: field.type, referencedCollectionId: referencedCollection(field) };
}

// ------------------------------------------------------------------------------- to the wire

const SYSTEM_KEYS = new Set<string>(DATA_SYSTEM_FIELD_KEYS);
const COMPARISON = ['EQ', 'NE', 'LT', 'LTE', 'GT', 'GTE', 'HAS_SOME', 'EXISTS'];
const TEXT_OPERATORS = [...COMPARISON, 'CONTAINS', 'STARTS_WITH', 'ENDS_WITH', 'HAS_ALL'];

const SYSTEM_FIELD_LIST = [
  systemField('_id', 'ID', 'TEXT'),
  systemField('_createdDate', 'Created Date', 'DATETIME'),
  systemField('_updatedDate', 'Updated Date', 'DATETIME'),
  systemField('_owner', 'Owner', 'TEXT'),
];

function systemField(key: string, displayName: string, type: FieldType) {
  return { key, displayName, type, systemField: true, encrypted: false, capabilities: capabilitiesOf(type) };
}

function capabilitiesOf(type: FieldType): { sortable: boolean; queryOperators: string[] } {
  const text = type === 'TEXT' || type === 'RICH_TEXT' || type === 'URL' || type === 'EMAIL' || type === 'SLUG';
  const array = type === 'ARRAY' || type === 'ARRAY_STRING' || type === 'MULTI_REFERENCE';
  return { sortable: !array, queryOperators: text ? TEXT_OPERATORS : array ? ['HAS_SOME', 'HAS_ALL', 'EXISTS'] : COMPARISON };
}

const DATA_OPERATIONS = [
  'AGGREGATE', 'BULK_INSERT', 'BULK_REMOVE', 'BULK_SAVE', 'BULK_UPDATE', 'COUNT', 'DISTINCT', 'FIND', 'GET', 'INSERT',
  'INSERT_REFERENCE', 'IS_REFERENCED', 'QUERY_REFERENCED', 'REMOVE', 'REMOVE_REFERENCE', 'REPLACE_REFERENCES', 'SAVE',
  'TRUNCATE', 'UPDATE', 'PATCH', 'BULK_PATCH',
];

export const INDEX_LIMITS = { regular: 20, unique: 5, total: 25 } as const;

/** The collection as the official SDK reads it (REST names; it renames id → _id itself); data/wire-schemas.ts writes it. */
export function toWireCollection(collection: StoredCollection) {
  return {
    id: collection.id,
    collectionType: 'NATIVE' as const,
    ownerAppId: null,
    maxPageSize: 1000,
    displayName: collection.displayName ?? collection.id,
    displayField: collection.displayField,
    displayNamespace: null,
    capabilities: { dataOperations: DATA_OPERATIONS, collectionOperations: ['UPDATE', 'REMOVE'], indexLimits: { ...INDEX_LIMITS } },
    fields: [
      ...SYSTEM_FIELD_LIST,
      ...collection.fields.map((field) => ({ ...field, systemField: false, capabilities: capabilitiesOf(field.type) })),
    ],
    permissions: { ...collection.permissions },
    revision: String(collection.revision),
    plugins: [],
    pagingModes: ['OFFSET', 'CURSOR'],
    createdDate: collection.createdAt.toISOString(),
    updatedDate: collection.updatedAt.toISOString(),
  };
}
