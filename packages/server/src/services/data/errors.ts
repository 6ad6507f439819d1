/**
 * The data store's errors: one WDE code and one human sentence each, which the official SDK shows
 * as the error message (wire reference §5.5). Codes from the spec (§8) and Wix's published list;
 * WDE09xx are Bodega's own where Wix publishes none (the query compiler starts that series).
 */
import { ApiError } from '../../platform/errors.js';
import { QueryError } from './query-basics.js';

export function dataError(status: number, code: string, description: string, data: Record<string, unknown> = {}): ApiError {
  return new ApiError(status, code, description, data);
}

export const DataErrors = {
  collectionNotFound: (collectionId: string) =>
    dataError(404, 'WDE0025', `The ${collectionId} collection does not exist. Create it before working with its items.`),
  permissionDenied: (operation: string, collectionId: string) =>
    dataError(403, 'WDE0027', `The current user does not have permissions to ${operation} on the ${collectionId} collection.`),
  itemNotFound: (itemId: string, collectionId: string) =>
    dataError(404, 'WDE0073', `Item [${itemId}] does not exist in collection [${collectionId}].`, { itemId }),
  itemNotMatching: (itemId: string, collectionId: string) =>
    dataError(404, 'WDE0073', `Item [${itemId}] does not exist in collection [${collectionId}] or does not match the condition.`, { itemId }),
  itemExists: (itemId: string, collectionId: string) =>
    dataError(409, 'WDE0074', `Item [${itemId}] already exists in collection [${collectionId}].`, { itemId }),
  tooManyItems: (collectionId: string) =>
    dataError(400, 'WDE0006', `Failed to bulk save items into [${collectionId}]. Cannot save more than 1000 items in one request.`),
  tooManyIds: (collectionId: string) =>
    dataError(400, 'WDE0069', `Failed to remove items from [${collectionId}]. Cannot remove more than 1000 items in one request.`),
  updateWithoutId: () => dataError(400, 'WDE0007', 'Invalid update. Updated object must have a string _id property.'),
  itemNotObject: (collectionId: string) =>
    dataError(400, 'WDE0004', `Failed to save an item into [${collectionId}]. Items must be objects.`),
  itemIdNotString: () => dataError(400, 'WDE0002', 'Item ID must be a non-empty string of at most 512 characters.'),
  notMultiReference: (fieldName: string) =>
    dataError(400, 'WDE0020', `Provided property [${fieldName}] is not a multi-reference field.`),
  collectionExists: (collectionId: string) =>
    dataError(409, 'WDE0906', `The ${collectionId} collection already exists.`),
  revisionMismatch: (collectionId: string, revision: string) =>
    dataError(409, 'WDE0907', `The ${collectionId} collection has changed: its current revision is ${revision}. Read it again and retry.`),
  invalidModification: (description: string) => dataError(400, 'WDE0908', description),
  jobNotFound: (jobId: string) => dataError(404, 'WDE0909', `There is no job [${jobId}].`),
  invalidCollection: (description: string) => dataError(400, 'WDE0910', description),
  indexProblem: (status: number, description: string) => dataError(status, 'WDE0911', description),
  tooDeep: (max: number) => dataError(400, 'WDE0004', `An item nests objects and arrays at most ${max} levels deep.`),
  unstorableValue: () =>
    dataError(400, 'WDE0913', 'A value in the request cannot be stored or compared (for example, text with a NUL character).'),
  valueTooLargeToIndex: () =>
    dataError(400, 'WDE0114', 'A value of an indexed field is too large for its index (at most about 2,500 bytes).'),
  uniqueViolation: (itemId: string, collectionId: string) =>
    dataError(409, 'WDE0912', `Item [${itemId}] has a value that a unique index of collection [${collectionId}] already holds.`, { itemId }),
} as const;

/**
 * What the database refuses about a request's values, as the caller's error rather than a 500:
 * data exceptions (class 22, e.g. a NUL character in text) and program limits (class 54, e.g. an
 * index row too large).
 */
export function fromDatabaseError(error: unknown): unknown {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code !== 'string') return error;
  if (code.startsWith('22')) return DataErrors.unstorableValue();
  if (code === '54000') return DataErrors.valueTooLargeToIndex();
  return error;
}

/** The compiler's QueryError as the wire error (HTTP 400, its code and sentence). */
export function fromQueryError(error: unknown): unknown {
  return error instanceof QueryError ? new ApiError(400, error.code, error.message) : error;
}

/** Runs a pure compile step, turning its QueryError into the wire error. */
export function compiled<T>(compile: () => T): T {
  try {
    return compile();
  } catch (error) {
    throw fromQueryError(error);
  }
}
