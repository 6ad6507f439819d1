// The wire's filters → SQL conditions on `data` (query-compiler.ts): operands, operators, and/or/not.
// Every value is a `$n` parameter. Pure.
import { canonicalDate, isPlainObject, isWireDate } from './wire-values.js';
import { MAX_FILTER_DEPTH, MAX_LIST_LENGTH, QueryError, type QueryErrorCode, type Root, arrayOf, pathExpr, pathTextExpr, show } from './query-basics.js';

// ---------------------------------------------------------------- filters

export type Params = unknown[];

export function bind(params: Params, value: unknown): string {
  params.push(value);
  return `$${params.length}`;
}

export const bindJson = (params: Params, value: unknown): string => `${bind(params, JSON.stringify(value))}::jsonb`;

export const TRUE = 'TRUE';
export const FALSE = 'FALSE';

// FALSE parts are kept, not short-circuited: a dropped part could hold the only use of a parameter.
export function and(parts: readonly string[]): string {
  const kept = parts.filter((part) => part !== TRUE);
  if (kept.length <= 1) return kept[0] ?? TRUE;
  return `(${kept.join(' AND ')})`;
}

export function or(parts: readonly string[]): string {
  const kept = parts.filter((part) => part !== FALSE);
  if (kept.length <= 1) return kept[0] ?? FALSE;
  return `(${kept.join(' OR ')})`;
}

// A missing field makes a comparison NULL; NOT must still count the item as "not matching".
export function not(condition: string): string {
  if (condition === TRUE) return FALSE;
  if (condition === FALSE) return TRUE;
  return `NOT COALESCE(${condition}, FALSE)`;
}

/** A condition on `data` for a wire filter; an absent filter is TRUE. Values go to params. */
export function compileFilter(filter: unknown, params: Params): string {
  return filterOn('data', filter, params);
}

interface FilterScope {
  root: Root;
  params: Params;
  depth: number;
}

export function filterOn(root: Root, filter: unknown, params: Params): string {
  if (filter === undefined || filter === null) return TRUE;
  return compileNode(filter, { root, params, depth: 0 });
}

function compileNode(filter: unknown, scope: FilterScope): string {
  if (!isPlainObject(filter)) throw new QueryError('WDE0016', `Filter must be an object. Got ${show(filter)} instead.`);
  if (scope.depth >= MAX_FILTER_DEPTH) {
    throw new QueryError('WDE0904', `Filter is nested more than ${MAX_FILTER_DEPTH} levels deep.`);
  }
  const inner = { ...scope, depth: scope.depth + 1 };
  return and(Object.entries(filter).map(([key, value]) => compileEntry(key, value, inner)));
}

function compileEntry(key: string, value: unknown, scope: FilterScope): string {
  if (key === '$and') return and(arrayOf(key, value).map((sub) => compileNode(sub, scope)));
  if (key === '$or') return or(arrayOf(key, value).map((sub) => compileNode(sub, scope)));
  if (key === '$not') {
    // The SDK sends {"$not":[sub]}; direct callers may send {"$not":{…}}. Several subfilters are AND-ed.
    const negated = Array.isArray(value) ? and(value.map((sub) => compileNode(sub, scope))) : compileNode(value, scope);
    return not(negated);
  }
  if (key.startsWith('$')) throw unknownOperator(key);
  return compileField(key, value, scope);
}

interface Field {
  json: string;
  text: string;
}

function compileField(path: string, condition: unknown, scope: FilterScope): string {
  const field = { json: pathExpr(scope.root, path), text: pathTextExpr(scope.root, path) };
  if (!isPlainObject(condition) || isWireDate(condition)) return equals(field, condition, scope.params);
  const entries = Object.entries(condition);
  if (entries.length === 0 || entries.some(([op]) => !op.startsWith('$'))) throw operandError('$eq', condition, EQUATABLE);
  return and(entries.map(([op, operand]) => applyOperator(op, field, operand, scope.params)));
}

type Operator = (field: Field, operand: unknown, params: Params) => string;

function applyOperator(op: string, field: Field, operand: unknown, params: Params): string {
  const operator = OPERATORS.get(op);
  if (operator === undefined) throw unknownOperator(op);
  return operator(field, operand, params);
}

function unknownOperator(op: string): QueryError {
  if (op === '$regex') return new QueryError('WDE0070', '$regex keyword is not allowed.');
  return new QueryError('WDE0901', `Unknown filter operator ${show(op)}.`);
}

// ------------------------------------------------ operands

type Scalar = string | number | boolean | null | { $date: string };
type OperandKind = 'string' | 'number' | 'boolean' | 'null' | 'date';

const EQUATABLE: readonly OperandKind[] = ['string', 'number', 'boolean', 'date', 'null'];
const COMPARABLE: readonly OperandKind[] = ['string', 'number', 'date'];
const LISTABLE: readonly OperandKind[] = ['string', 'number', 'boolean', 'date'];

export function toScalar(value: unknown): { kind: OperandKind; value: Scalar } | undefined {
  if (value === null) return { kind: 'null', value };
  if (typeof value === 'string') return { kind: 'string', value };
  if (typeof value === 'number') return Number.isFinite(value) ? { kind: 'number', value } : undefined;
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (!isWireDate(value)) return undefined;
  const iso = canonicalDate(value.$date);
  if (iso === undefined) throw new QueryError('WDE0058', `Invalid date ${show(value)}.`);
  return { kind: 'date', value: { $date: iso } };
}

function scalar(op: string, value: unknown, allowed: readonly OperandKind[], code: QueryErrorCode = 'WDE0058'): Scalar {
  const operand = toScalar(value);
  if (operand === undefined || !allowed.includes(operand.kind)) throw operandError(op, value, allowed, code);
  return operand.value;
}

function operandError(op: string, value: unknown, allowed: readonly OperandKind[], code: QueryErrorCode = 'WDE0058') {
  return new QueryError(code, `${op} should be one of ${allowed.join(', ')}. Got ${show(value)} instead.`);
}

function listOperands(op: string, value: unknown): Scalar[] {
  const list = arrayOf(op, value);
  if (list.length > MAX_LIST_LENGTH) throw new QueryError('WDE0036', `${op} cannot list more than ${MAX_LIST_LENGTH} values.`);
  return list.map((item) => scalar(op, item, LISTABLE, 'WDE0060'));
}

function flag(op: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new QueryError('WDE0058', `${op} should be a boolean. Got ${show(value)} instead.`);
  return value;
}

// ------------------------------------------------ operators

function equals(field: Field, value: unknown, params: Params): string {
  const operand = scalar('$eq', value, EQUATABLE);
  return operand === null ? emptiness(field, true) : `${field.json} = ${bindJson(params, operand)}`;
}

// A missing field is not equal to anything, so $ne matches items without the field too.
function notEquals(field: Field, value: unknown, params: Params): string {
  const operand = scalar('$ne', value, EQUATABLE);
  return operand === null ? emptiness(field, false) : `${field.json} IS DISTINCT FROM ${bindJson(params, operand)}`;
}

// jsonb orders null < strings < numbers < booleans < arrays < objects, so a range over one type must
// also bound the far side: by a constant where one exists (which keeps the planner's row estimate
// and the index range exact), else by a type test.
function compare(op: string, sqlOperator: string): Operator {
  return (field, value, params) => {
    const operand = scalar(op, value, COMPARABLE);
    const range = `${field.json} ${sqlOperator} ${bindJson(params, operand)}`;
    return `(${range} AND ${farBound(field.json, sqlOperator, operand)})`;
  };
}

function farBound(json: string, sqlOperator: string, operand: Scalar): string {
  const below = sqlOperator.startsWith('<');
  if (typeof operand === 'number') return below ? `jsonb_typeof(${json}) = 'number'` : `${json} < 'false'::jsonb`;
  if (typeof operand === 'string') return below ? `${json} >= '""'::jsonb` : `jsonb_typeof(${json}) = 'string'`;
  return below ? `${json} >= '{"$date": ""}'::jsonb` : `${json} < '{"$date": 0}'::jsonb`;
}

function emptiness(field: Field, empty: boolean): string {
  return empty
    ? `(${field.json} IS NULL OR ${field.json} = 'null'::jsonb)`
    : `(${field.json} IS NOT NULL AND ${field.json} <> 'null'::jsonb)`;
}

function inList(field: Field, value: unknown, params: Params): string {
  const placeholders = listOperands('$in', value).map((operand) => bindJson(params, operand));
  return placeholders.length === 0 ? FALSE : `${field.json} IN (${placeholders.join(', ')})`;
}

// A scalar field equal to a listed value, or an array field holding one.
function hasSome(field: Field, value: unknown, params: Params): string {
  const placeholders = listOperands('$hasSome', value).map((operand) => bindJson(params, operand));
  if (placeholders.length === 0) return FALSE;
  const held = placeholders.map((placeholder) => `${field.json} @> jsonb_build_array(${placeholder})`);
  return or([`${field.json} IN (${placeholders.join(', ')})`, ...held]);
}

// An array field holding every listed value; an empty list asks nothing.
function hasAll(field: Field, value: unknown, params: Params): string {
  const operands = listOperands('$hasAll', value);
  return operands.length === 0 ? TRUE : `${field.json} @> ${bindJson(params, operands)}`;
}

function matches(op: string, pattern: (escaped: string) => string): Operator {
  return (field, value, params) => {
    if (typeof value !== 'string') throw new QueryError('WDE0059', `${op} should be a string. Got ${show(value)} instead.`);
    const like = bind(params, pattern(value.replace(/[\\%_]/g, '\\$&')));
    return `(jsonb_typeof(${field.json}) = 'string' AND ${field.text} ILIKE ${like} ESCAPE '\\')`;
  };
}

const OPERATORS: ReadonlyMap<string, Operator> = new Map<string, Operator>([
  ['$eq', equals],
  ['$ne', notEquals],
  ['$gt', compare('$gt', '>')],
  ['$gte', compare('$gte', '>=')],
  ['$lt', compare('$lt', '<')],
  ['$lte', compare('$lte', '<=')],
  ['$in', inList],
  ['$hasSome', hasSome],
  ['$hasAll', hasAll],
  ['$contains', matches('$contains', (text) => `%${text}%`)],
  ['$startsWith', matches('$startsWith', (text) => `${text}%`)],
  ['$endsWith', matches('$endsWith', (text) => `%${text}`)],
  ['$exists', (field, value) => `${field.json} ${flag('$exists', value) ? 'IS NOT NULL' : 'IS NULL'}`],
  ['$isEmpty', (field, value) => emptiness(field, flag('$isEmpty', value))],
]);
