/**
 * The Stores V3 queries, read as the official packages send them: filters and sorts mapped onto
 * the V1 product query, cursors, paging metadata, `fields`, and the label lists' filter. Pure: no I/O.
 */
import { ApiError } from '../../platform/errors.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ids(value: unknown, field: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((x): x is string => typeof x === 'string')) throw new ApiError(400, 'INVALID_QUERY', `${field} takes ids`);
  return list;
}

/** `{$matchItems: [{id: {$in: [...]}}]}` (or `$eq`, or a bare id) on a categories list → the ids. */
function categoryIds(condition: unknown, field: string): string[] {
  if (!isObject(condition)) throw new ApiError(400, 'INVALID_QUERY', `${field} takes $matchItems, $hasSome or $exists`);
  const out: string[] = [];
  for (const [op, operand] of Object.entries(condition)) {
    if (op === '$matchItems') {
      if (!Array.isArray(operand)) throw new ApiError(400, 'INVALID_QUERY', `$matchItems on ${field} needs a list`);
      for (const item of operand) {
        const id = isObject(item) ? (item.id ?? item._id) : undefined;
        if (isObject(id) && (id.$in !== undefined || id.$eq !== undefined || id.$hasSome !== undefined)) out.push(...ids(id.$in ?? id.$eq ?? id.$hasSome, field));
        else out.push(...ids(id, field));
      }
    } else if (op === '$hasSome' || op === '$in') {
      out.push(...ids(operand, field));
    } else {
      throw new ApiError(400, 'INVALID_QUERY', `The operator ${op} is not supported on ${field}`);
    }
  }
  return out;
}

const PRODUCT_FIELD_NAMES: Readonly<Record<string, string>> = {
  id: 'id', _id: 'id', name: 'name', slug: 'slug', visible: 'visible', productType: 'productType',
  createdDate: 'createdDate', _createdDate: 'createdDate', updatedDate: 'lastUpdated', _updatedDate: 'lastUpdated',
  'actualPriceRange.minValue.amount': 'price', 'actualPriceRange.maxValue.amount': 'price',
  'compareAtPriceRange.minValue.amount': 'priceData.price', 'compareAtPriceRange.maxValue.amount': 'priceData.price',
};

function mapProductCondition(field: string, condition: unknown): unknown {
  if (field === 'productType') {
    const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);
    if (isObject(condition)) return Object.fromEntries(Object.entries(condition).map(([op, v]) => [op, Array.isArray(v) ? v.map(lower) : lower(v)]));
    return lower(condition);
  }
  if (field.endsWith('.amount')) {
    const num = (v: unknown) => (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? Number(v) : v);
    if (isObject(condition)) return Object.fromEntries(Object.entries(condition).map(([op, v]) => [op, Array.isArray(v) ? v.map(num) : num(v)]));
    return num(condition);
  }
  return condition;
}

/** A V3 product filter as the catalog's (V1) filter: categories become collections. */
export function v3ProductFilter(filter: unknown): unknown {
  if (filter === undefined || filter === null) return undefined;
  if (!isObject(filter)) throw new ApiError(400, 'INVALID_QUERY', 'A filter must be an object');
  const out: Record<string, unknown> = {};
  const and: unknown[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value)) throw new ApiError(400, 'INVALID_QUERY', `${key} needs a list of filters`);
      out[key] = value.map(v3ProductFilter);
    } else if (key === '$not') {
      out[key] = v3ProductFilter(value);
    } else if (key === 'allCategoriesInfo.categories' || key === 'directCategoriesInfo.categories' || key === 'directCategoryIdsInfo.categoryIds') {
      and.push({ collectionIds: { $hasSome: categoryIds(value, key) } });
    } else if (key === 'mainCategoryId') {
      and.push({ collectionIds: isObject(value) ? value : { $hasSome: [value] } });
    } else {
      const mapped = Object.hasOwn(PRODUCT_FIELD_NAMES, key) ? PRODUCT_FIELD_NAMES[key] : undefined;
      if (!mapped) throw new ApiError(400, 'INVALID_QUERY', `"${key}" cannot be filtered on`);
      const condition = mapProductCondition(key, value);
      if (Object.hasOwn(out, mapped)) and.push({ [mapped]: condition });
      else out[mapped] = condition;
    }
  }
  const earlier: unknown[] = Array.isArray(out.$and) ? (out.$and as unknown[]) : [];
  if (and.length) out.$and = [...earlier, ...and];
  return out;
}

export function v3ProductSort(sort: unknown): unknown {
  if (sort === undefined || sort === null) return undefined;
  if (!Array.isArray(sort)) throw new ApiError(400, 'INVALID_QUERY', 'The sort must be a list');
  return sort.map((s: unknown) => {
    if (!isObject(s) || typeof s.fieldName !== 'string') throw new ApiError(400, 'INVALID_QUERY', 'Each sort entry needs a fieldName');
    const mapped = Object.hasOwn(PRODUCT_FIELD_NAMES, s.fieldName) ? PRODUCT_FIELD_NAMES[s.fieldName] : undefined;
    if (!mapped) throw new ApiError(400, 'INVALID_QUERY', `"${s.fieldName}" cannot be sorted on`);
    return { fieldName: mapped, order: s.order ?? 'ASC' };
  });
}

// Cursor paging -----------------------------------------------------------------------------------

/** What a cursor carries: the rest of the query, so the next page needs only the cursor. */
export interface CursorState {
  filter?: unknown;
  sort?: unknown;
  offset: number;
  limit: number;
}

export function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

export function decodeCursor(cursor: string): CursorState {
  try {
    const state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (isObject(state) && typeof state.offset === 'number' && typeof state.limit === 'number' && Number.isSafeInteger(state.offset) && Number.isSafeInteger(state.limit)
      && state.offset >= 0 && state.limit >= 1 && state.limit <= 1000) {
      return { filter: state.filter, sort: state.sort, offset: state.offset, limit: state.limit };
    }
  } catch {
    // falls through to the error below
  }
  throw new ApiError(400, 'INVALID_CURSOR', 'The cursor is not one this server gave');
}

export function pagingMetadata(state: CursorState, count: number, total: number) {
  const hasNext = state.offset + count < total;
  return {
    count,
    cursors: {
      ...(hasNext ? { next: encodeCursor({ ...state, offset: state.offset + count }) } : {}),
      ...(state.offset > 0 ? { prev: encodeCursor({ ...state, offset: Math.max(0, state.offset - state.limit) }) } : {}),
    },
    hasNext,
  };
}

/** `fields` arrives as a list (JSON body, `.r`) or as text (one repeated query key). */
export function fieldSet(value: unknown): Set<string> {
  if (typeof value === 'string') return new Set([value]);
  if (Array.isArray(value)) return new Set(value.filter((v): v is string => typeof v === 'string'));
  return new Set();
}

/** Filters a derived list by `id` and `name` ($eq, $in, $startsWith), as the label queries allow. */
export function filterByIdAndName<T extends { id: string; name: string }>(items: readonly T[], filter: unknown): T[] {
  if (filter === undefined || filter === null) return [...items];
  if (!isObject(filter)) throw new ApiError(400, 'INVALID_QUERY', 'A filter must be an object');
  return items.filter((item) => Object.entries(filter).every(([key, condition]) => {
    const field = key === '_id' ? 'id' : key;
    if (field !== 'id' && field !== 'name') throw new ApiError(400, 'INVALID_QUERY', `"${key}" cannot be filtered on`);
    const value = item[field];
    if (!isObject(condition)) return value === condition;
    return Object.entries(condition).every(([op, operand]) => {
      switch (op) {
        case '$eq': return value === operand;
        case '$ne': return value !== operand;
        case '$in': return Array.isArray(operand) && operand.includes(value);
        case '$startsWith': return typeof operand === 'string' && value.toLowerCase().startsWith(operand.toLowerCase());
        default: throw new ApiError(400, 'INVALID_QUERY', `The operator ${op} is not supported on "${key}"`);
      }
    });
  }));
}
