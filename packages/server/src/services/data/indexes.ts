/**
 * Collection indexes (the `@wix/data` `indexes` module) as PostgreSQL expression indexes, pure.
 * An index leads with site_id and collection_id and then indexes fieldExpr(path) — the very text
 * the query compiler writes — so a filtered, sorted page over the indexed fields is an index scan;
 * item_id ends it, being every order's last key.
 *
 * Not partial: PostgreSQL drops the conditions a partial index's predicate implies (site_id,
 * collection_id) from the index conditions, and a btree without its leading columns is scanned
 * whole. A unique index is the exception: uniqueness holds within one collection, so it is partial
 * (its checks on insert do not go through the planner), with a plain companion index for queries.
 */
import { createHash } from 'node:crypto';
import type { Static } from 'typebox';
import { DATA_COLLECTION_LIMITS, DATA_INDEX_NAME_PATTERN } from '../../platform/field-limits.js';
import { DataErrors } from './errors.js';
import { fieldExpr } from './query-basics.js';
import type { DataIndex } from './wire-schemas.js';
import { isPlainObject } from './wire-values.js';

export interface IndexField {
  path: string;
  order: 'ASC' | 'DESC';
}

export interface IndexDefinition {
  name: string;
  fields: IndexField[];
  unique: boolean;
  caseInsensitive: boolean;
}

export type IndexStatus = 'BUILDING' | 'ACTIVE' | 'FAILED';

export interface StoredIndex extends IndexDefinition {
  status: IndexStatus;
  failure: { code: string; description: string } | null;
}

const NAME = new RegExp(DATA_INDEX_NAME_PATTERN);
const MAX_FIELDS = DATA_COLLECTION_LIMITS.indexFields;
const invalid = (description: string) => DataErrors.indexProblem(400, description);

export function readIndexName(value: unknown): string {
  if (typeof value !== 'string' || !NAME.test(value)) {
    throw invalid(`Invalid index name [${String(value)}]: use letters, digits, "_", "-" and spaces, at most 128 characters.`);
  }
  return value;
}

export function readIndex(wire: unknown): IndexDefinition {
  if (!isPlainObject(wire)) throw invalid('index should be an object.');
  const name = readIndexName(wire.name);
  if (!Array.isArray(wire.fields) || wire.fields.length === 0 || wire.fields.length > MAX_FIELDS) {
    throw invalid(`An index has 1 to ${MAX_FIELDS} fields.`);
  }
  const fields = wire.fields.map(readIndexField);
  const unique = wire.unique === true;
  if (unique && fields.length !== 1) throw invalid('A unique index has exactly one field.');
  if (new Set(fields.map((field) => field.path)).size !== fields.length) throw invalid('An index lists each field once.');
  return { name, fields, unique, caseInsensitive: wire.caseInsensitive === true };
}

function readIndexField(wire: unknown): IndexField {
  const path = isPlainObject(wire) ? wire.path : undefined;
  const order = isPlainObject(wire) ? (wire.order ?? 'ASC') : undefined;
  if (typeof path !== 'string' || (order !== 'ASC' && order !== 'DESC')) {
    throw invalid('Each index field has a path and an order (ASC or DESC).');
  }
  try {
    fieldExpr(path);
  } catch {
    throw invalid(`Invalid index field path [${path}].`);
  }
  return { path, order };
}

/** A name PostgreSQL accepts (≤ 63 bytes), unique per site, collection and index. */
export function pgIndexName(siteId: string, collectionId: string, name: string): string {
  const hash = createHash('sha256').update(JSON.stringify([siteId, collectionId, name])).digest('hex');
  return `data_ix_${hash.slice(0, 40)}`;
}

const literal = (text: string): string => `'${text.replaceAll("'", "''")}'`;
const identifier = (name: string): string => {
  if (!/^data_ix_[0-9a-f]{40}(_q)?$/.test(name)) throw new Error(`not an index name: ${name}`);
  return `"${name}"`;
};

/** The PostgreSQL indexes behind one collection index: itself, and a unique index's query companion. */
export function pgIndexNames(pgName: string, unique: boolean): string[] {
  return unique ? [pgName, `${pgName}_q`] : [pgName];
}

/**
 * The statements that build an index. DDL cannot take parameters: the site and collection ids of a
 * unique index's predicate are quoted literals (both validated ids), and every field path goes
 * through fieldExpr, which accepts no quote.
 */
export function createIndexSql(pgName: string, siteId: string, collectionId: string, index: IndexDefinition, concurrently: boolean): string[] {
  const how = concurrently ? 'CONCURRENTLY ' : '';
  const fields = index.fields.map((field) => `(${fieldExpr(field.path)})${field.order === 'DESC' ? ' DESC' : ''}`);
  // item_id follows the last field's direction, as in the compiler's ORDER BY, so the index serves it whole.
  const itemId = index.fields.at(-1)?.order === 'DESC' ? 'item_id DESC' : 'item_id';
  const queryable = (name: string) => `CREATE INDEX ${how}${identifier(name)} ON data_items (site_id, collection_id, ${fields.join(', ')}, ${itemId})`;
  if (!index.unique) return [queryable(pgName)];
  return [
    `CREATE UNIQUE INDEX ${how}${identifier(pgName)} ON data_items (site_id, collection_id, ${fields.join(', ')}) ` +
      `WHERE site_id = ${literal(siteId)} AND collection_id = ${literal(collectionId)}`,
    queryable(`${pgName}_q`),
  ];
}

export function dropIndexSql(pgName: string, unique: boolean, concurrently: boolean): string[] {
  return pgIndexNames(pgName, unique).map((name) => `DROP INDEX ${concurrently ? 'CONCURRENTLY ' : ''}IF EXISTS ${identifier(name)}`);
}

export function toWireIndex(index: StoredIndex): Static<typeof DataIndex> {
  return {
    name: index.name,
    fields: index.fields.map((field) => ({ path: field.path, order: field.order })),
    status: index.status,
    unique: index.unique,
    caseInsensitive: index.caseInsensitive,
    source: 'USER',
    ...(index.failure ? { failure: { ...index.failure } } : {}),
  };
}
