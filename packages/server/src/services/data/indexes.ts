/**
 * Collection indexes (the `@wix/data` `indexes` module) as PostgreSQL expression indexes, pure.
 * Each index covers one collection's rows (a partial index), leads with site_id and collection_id,
 * and indexes fieldExpr(path) — the very text the query compiler writes — so a filtered, sorted
 * page over the indexed fields is an index scan. item_id ends a non-unique index: it is every
 * order's last key, in the direction of the key before it.
 */
import { createHash } from 'node:crypto';
import { DataErrors } from './errors.js';
import { fieldExpr } from './query-compiler.js';
import { isPlainObject, type JsonObject } from './wire-values.js';

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

const NAME = /^[A-Za-z0-9_][A-Za-z0-9_ -]{0,127}$/;
const MAX_FIELDS = 3;
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
  if (!/^data_ix_[0-9a-f]{40}$/.test(name)) throw new Error(`not an index name: ${name}`);
  return `"${name}"`;
};

/**
 * DDL cannot take parameters: the site and collection ids are written as quoted literals (both
 * are validated ids) and every field path goes through fieldExpr, which accepts no quote.
 */
export function createIndexSql(pgName: string, siteId: string, collectionId: string, index: IndexDefinition, concurrently: boolean): string {
  const columns = ['site_id', 'collection_id', ...index.fields.map((field) => `(${fieldExpr(field.path)})${field.order === 'DESC' ? ' DESC' : ''}`)];
  // item_id follows the last field's direction, as in the compiler's ORDER BY, so the index serves it whole.
  if (!index.unique) columns.push(index.fields.at(-1)?.order === 'DESC' ? 'item_id DESC' : 'item_id');
  return (
    `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${concurrently ? 'CONCURRENTLY ' : ''}${identifier(pgName)} ` +
    `ON data_items (${columns.join(', ')}) WHERE site_id = ${literal(siteId)} AND collection_id = ${literal(collectionId)}`
  );
}

export function dropIndexSql(pgName: string, concurrently: boolean): string {
  return `DROP INDEX ${concurrently ? 'CONCURRENTLY ' : ''}IF EXISTS ${identifier(pgName)}`;
}

export function toWireIndex(index: StoredIndex): JsonObject {
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
