/** Paged results of data calls: `next()` by cursor when the server gave one, else by offset. */
import { wde } from './wde.js';
import type { DataPagingMetadata } from '../../generated/data-items.js';

export const DEFAULT_PAGE_SIZE = 50;

/** A page's metadata as the data calls answer it (any part may be missing when a page starts empty). */
export type PagingMetadata = Partial<DataPagingMetadata>;

export type PageRequest = { limit: number; offset: number } | { limit: number; cursor: string };

export interface DataPage<T> {
  items: T[];
  length: number;
  /** `pagingMetadata.total` (when the server counted). */
  totalCount?: number;
  pageSize: number;
  /** Zero-based page index, for offset paging. */
  currentPage?: number;
  totalPages?: number;
  cursors: { next?: string; prev?: string };
  hasNext(): boolean;
  hasPrev(): boolean;
  next(): Promise<DataPage<T>>;
  prev(): Promise<DataPage<T>>;
}

export type PageFetcher<T> = (request: PageRequest) => Promise<DataPage<T>>;

export function makePage<T>(
  collection: string,
  items: T[],
  meta: PagingMetadata = {},
  request: PageRequest,
  fetchPage: PageFetcher<T>,
): DataPage<T> {
  const pageSize = request.limit;
  const offset = 'offset' in request ? request.offset : undefined;
  const cursors = meta.cursors ?? {};
  const total = meta.total;
  const hasNext = (): boolean =>
    meta.hasNext ?? (Boolean(cursors.next) || (total !== undefined && (offset ?? 0) + items.length < total));
  const hasPrev = (): boolean => Boolean(cursors.prev) || (offset !== undefined && offset > 0);
  return {
    items,
    length: items.length,
    totalCount: total,
    pageSize,
    currentPage: offset === undefined ? undefined : Math.floor(offset / pageSize),
    totalPages: total === undefined ? undefined : Math.ceil(total / pageSize),
    cursors,
    hasNext,
    hasPrev,
    async next() {
      if (!hasNext()) throw wde(`WDE0165: Invalid query on [${collection}]. There is no next page.`);
      if (cursors.next) return fetchPage({ limit: pageSize, cursor: cursors.next });
      return fetchPage({ limit: pageSize, offset: (offset ?? 0) + pageSize });
    },
    async prev() {
      if (!hasPrev()) throw wde(`WDE0159: Invalid query on [${collection}]. There is no prev page.`);
      if (cursors.prev) return fetchPage({ limit: pageSize, cursor: cursors.prev });
      const previous = (offset ?? 0) - pageSize;
      if (previous < 0) {
        throw wde(`WDE0037: Invalid query on [${collection}]. Invalid prev positioned query skip on a negative number ${previous}.`);
      }
      return fetchPage({ limit: pageSize, offset: previous });
    },
  };
}
