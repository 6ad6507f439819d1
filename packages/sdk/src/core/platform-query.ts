/**
 * The offset-paged query builder of generated modules (members, catalog products and collections):
 * `eq(f, v)` ⇒ `{f: v}`, several conditions ⇒ `$and`, `not` ⇒ `{$not: {…}}` (object form),
 * system field names in wire form. Pages are computed from `metadata.total`.
 */
import type { PlainObject } from './query-string.js';
import { wireFieldPath } from './wire-keys.js';

export const DEFAULT_PAGE_SIZE = 50;

export interface PlatformQuery {
  filter: PlainObject;
  sort: { fieldName: string; order: 'ASC' | 'DESC' }[];
  paging: { limit: number; offset: number };
}

export interface PlatformPage<T> {
  items: T[];
  /** `metadata.total`; undefined when the server could not count. */
  totalCount?: number;
  length: number;
  pageSize: number;
  currentPage: number;
  totalPages?: number;
  hasNext(): boolean;
  hasPrev(): boolean;
  next(): Promise<PlatformPage<T>>;
  prev(): Promise<PlatformPage<T>>;
}

export type PlatformRunner<T> = (query: PlatformQuery) => Promise<{ items: T[]; total?: number }>;

interface State {
  conditions: PlainObject[];
  sort: PlatformQuery['sort'];
  limit: number;
  offset: number;
}

type Scalar = string | number | boolean | Date;

export class PlatformQueryBuilder<T> {
  readonly #run: PlatformRunner<T>;
  readonly #state: State;

  constructor(run: PlatformRunner<T>, state?: State) {
    this.#run = run;
    this.#state = state ?? { conditions: [], sort: [], limit: DEFAULT_PAGE_SIZE, offset: 0 };
  }

  #with(patch: Partial<State>): this {
    return new PlatformQueryBuilder<T>(this.#run, { ...this.#state, ...patch }) as this;
  }
  #where(field: string, condition: unknown): this {
    return this.#with({ conditions: [...this.#state.conditions, { [wireFieldPath(field)]: condition }] });
  }
  #filter(): PlainObject {
    const { conditions } = this.#state;
    if (conditions.length === 0) return {};
    return conditions.length === 1 ? conditions[0] : { $and: conditions };
  }

  eq(field: string, value: Scalar | null): this {
    return this.#where(field, value);
  }
  ne(field: string, value: Scalar | null): this {
    return this.#where(field, { $ne: value });
  }
  gt(field: string, value: Scalar): this {
    return this.#where(field, { $gt: value });
  }
  ge(field: string, value: Scalar): this {
    return this.#where(field, { $gte: value });
  }
  lt(field: string, value: Scalar): this {
    return this.#where(field, { $lt: value });
  }
  le(field: string, value: Scalar): this {
    return this.#where(field, { $lte: value });
  }
  between(field: string, from: Scalar, to: Scalar): this {
    return this.#where(field, { $gte: from, $lt: to });
  }
  startsWith(field: string, value: string): this {
    return this.#where(field, { $startsWith: value });
  }
  hasSome(field: string, values: Scalar[]): this {
    return this.#where(field, { $hasSome: values });
  }
  hasAll(field: string, values: Scalar[]): this {
    return this.#where(field, { $hasAll: values });
  }
  in(field: string, values: Scalar[]): this {
    return this.#where(field, { $in: values });
  }
  exists(field: string, value = true): this {
    return this.#where(field, { $exists: value });
  }
  and(other: PlatformQueryBuilder<T>): this {
    return this.#with({ conditions: [...this.#state.conditions, other.#filter()] });
  }
  or(other: PlatformQueryBuilder<T>): this {
    const mine = this.#filter();
    const conditions = this.#state.conditions.length ? [{ $or: [mine, other.#filter()] }] : [other.#filter()];
    return this.#with({ conditions });
  }
  not(other: PlatformQueryBuilder<T>): this {
    return this.#with({ conditions: [...this.#state.conditions, { $not: other.#filter() }] });
  }
  ascending(...fields: string[]): this {
    return this.#with({
      sort: [...this.#state.sort, ...fields.map((f) => ({ fieldName: wireFieldPath(f), order: 'ASC' as const }))],
    });
  }
  descending(...fields: string[]): this {
    return this.#with({
      sort: [...this.#state.sort, ...fields.map((f) => ({ fieldName: wireFieldPath(f), order: 'DESC' as const }))],
    });
  }
  limit(limit: number): this {
    return this.#with({ limit });
  }
  skip(offset: number): this {
    return this.#with({ offset });
  }

  /** The request this builder sends (for inspection and tests). */
  toQuery(): PlatformQuery {
    const { sort, limit, offset } = this.#state;
    return { filter: this.#filter(), sort, paging: { limit, offset } };
  }

  async find(): Promise<PlatformPage<T>> {
    const query = this.toQuery();
    const { items, total } = await this.#run(query);
    const { limit, offset } = query.paging;
    const hasNext = (): boolean => total !== undefined && offset + limit < total;
    const hasPrev = (): boolean => offset > 0;
    return {
      items,
      totalCount: total,
      length: items.length,
      pageSize: limit,
      currentPage: Math.floor(offset / limit),
      totalPages: total === undefined ? undefined : Math.ceil(total / limit),
      hasNext,
      hasPrev,
      next: () =>
        hasNext() ? this.skip(offset + limit).find() : Promise.reject(new Error('There is no next page')),
      prev: () =>
        hasPrev()
          ? this.skip(Math.max(0, offset - limit)).find()
          : Promise.reject(new Error('There is no previous page')),
    };
  }
}
