/**
 * The data filter builder (wire-surface §5.2): `eq` ⇒ `{f: v}`, several conditions ⇒ `$and`,
 * `not` ⇒ `{$and: [..., {$not: [sub]}]}`. Invalid arguments are recorded and reported by the call
 * that would send the filter, before any request.
 */
import { describe, isComparable } from './checks.js';
import { wde } from './wde.js';

export type Filter = Record<string, unknown>;
export type FilterValue = string | number | boolean | Date | null;
export type Comparable = string | number | Date;

export interface FilterState {
  conditions: Filter[];
  /** The first invalid argument given to the builder. */
  error?: Error;
}

const isEqualityOperand = (value: unknown): boolean =>
  value === null || typeof value === 'boolean' || isComparable(value);

export class DataFilter<S extends FilterState = FilterState> {
  /** Set on query builders: `and/or/not` accept only queries of the same collection. */
  readonly collection?: string;
  protected readonly state: S;

  constructor(state: S) {
    this.state = state;
  }

  /** A copy of this builder with `patch` applied to its state. */
  protected with(patch: Partial<S>): this {
    const next = Object.create(Object.getPrototypeOf(this) as object) as this;
    return Object.assign(next, this, { state: { ...this.state, ...patch } });
  }

  protected fail(error: Error): this {
    return this.with({ error: this.state.error ?? error } as Partial<S>);
  }

  get validationError(): Error | undefined {
    return this.state.error;
  }

  /** The wire filter. */
  toFilter(): Filter {
    const { conditions } = this.state;
    if (conditions.length === 0) return {};
    return conditions.length === 1 ? conditions[0] : { $and: conditions };
  }

  private whereCondition(operator: string, field: unknown, condition: unknown, operandError?: Error): this {
    if (typeof field !== 'string') {
      return this.fail(wde(`WDE0048: Invalid ${operator} field value [${describe(field)}]. ${operator} field must be a String.`));
    }
    if (operandError) return this.fail(operandError);
    return this.with({ conditions: [...this.state.conditions, { [field]: condition }] } as Partial<S>);
  }

  private comparisonCondition(operator: string, wireOperator: string, field: string, value: unknown): this {
    const error = isComparable(value)
      ? undefined
      : wde(`WDE0045: Invalid ${operator} parameter value [${describe(value)}]. Valid ${operator} parameter types are String, Number or Date.`);
    return this.whereCondition(operator, field, { [wireOperator]: value }, error);
  }

  private textCondition(operator: string, field: string, value: unknown): this {
    const error =
      typeof value === 'string'
        ? undefined
        : wde(`WDE0044: Invalid ${operator} parameter value [${describe(value)}]. ${operator} parameter must be a String.`);
    return this.whereCondition(operator, field, { [`$${operator}`]: value }, error);
  }

  private setCondition(operator: string, field: string, values: unknown[]): this {
    const flat = values.length === 1 && Array.isArray(values[0]) ? (values[0] as unknown[]) : values;
    const error = flat.every(isComparable)
      ? undefined
      : wde(`WDE0047: Invalid ${operator} usage. ${operator} supports only Number, String or Date items.`);
    return this.whereCondition(operator, field, { [`$${operator}`]: flat }, error);
  }

  private otherFilter(operator: string, other: unknown): Filter | Error {
    if (!(other instanceof DataFilter)) {
      return wde(`WDE0049: Invalid ${operator} parameter [${describe(other)}]. ${operator} expects a filter or query only.`);
    }
    if (other.collection !== undefined && this.collection !== undefined && other.collection !== this.collection) {
      return wde(`WDE0050: Invalid ${operator} parameter query for [${this.collection}]. ${operator} accepts a query for the same collection only.`);
    }
    const filter = other as DataFilter;
    return filter.validationError ?? filter.toFilter();
  }

  eq(field: string, value: FilterValue): this {
    const error = isEqualityOperand(value)
      ? undefined
      : wde(`WDE0045: Invalid eq parameter value [${describe(value)}]. Valid eq parameter types are String, Number, Boolean or Date.`);
    return this.whereCondition('eq', field, value, error);
  }
  ne(field: string, value: FilterValue): this {
    const error = isEqualityOperand(value)
      ? undefined
      : wde(`WDE0045: Invalid ne parameter value [${describe(value)}]. Valid ne parameter types are String, Number, Boolean or Date.`);
    return this.whereCondition('ne', field, { $ne: value }, error);
  }
  gt(field: string, value: Comparable): this {
    return this.comparisonCondition('gt', '$gt', field, value);
  }
  ge(field: string, value: Comparable): this {
    return this.comparisonCondition('ge', '$gte', field, value);
  }
  lt(field: string, value: Comparable): this {
    return this.comparisonCondition('lt', '$lt', field, value);
  }
  le(field: string, value: Comparable): this {
    return this.comparisonCondition('le', '$lte', field, value);
  }
  between(field: string, from: Comparable, to: Comparable): this {
    let error: Error | undefined;
    if (!isComparable(from) || !isComparable(to)) {
      const bad = isComparable(from) ? to : from;
      error = wde(`WDE0045: Invalid between parameter value [${describe(bad)}]. Valid between parameter types are String, Number or Date.`);
    } else if (typeof from !== typeof to || from instanceof Date !== to instanceof Date) {
      error = wde(`WDE0046: Invalid between parameter values [${describe(from)}] and [${describe(to)}]. Both parameters must be of the same type.`);
    }
    return this.whereCondition('between', field, { $gte: from, $lt: to }, error);
  }
  startsWith(field: string, value: string): this {
    return this.textCondition('startsWith', field, value);
  }
  endsWith(field: string, value: string): this {
    return this.textCondition('endsWith', field, value);
  }
  contains(field: string, value: string): this {
    return this.textCondition('contains', field, value);
  }
  hasSome(field: string, ...values: (Comparable | Comparable[])[]): this {
    return this.setCondition('hasSome', field, values);
  }
  hasAll(field: string, ...values: (Comparable | Comparable[])[]): this {
    return this.setCondition('hasAll', field, values);
  }
  in(field: string, ...values: (Comparable | Comparable[])[]): this {
    return this.setCondition('in', field, values);
  }
  exists(field: string, value = true): this {
    return this.whereCondition('exists', field, { $exists: value });
  }
  isEmpty(field: string): this {
    return this.whereCondition('isEmpty', field, null);
  }
  isNotEmpty(field: string): this {
    return this.whereCondition('isNotEmpty', field, { $ne: null });
  }

  and(other: DataFilter): this {
    const filter = this.otherFilter('and', other);
    if (filter instanceof Error) return this.fail(filter);
    return this.with({ conditions: [...this.state.conditions, filter] } as Partial<S>);
  }
  or(other: DataFilter): this {
    const filter = this.otherFilter('or', other);
    if (filter instanceof Error) return this.fail(filter);
    const conditions = this.state.conditions.length ? [{ $or: [this.toFilter(), filter] }] : [filter];
    return this.with({ conditions } as Partial<S>);
  }
  not(other: DataFilter): this {
    const filter = this.otherFilter('not', other);
    if (filter instanceof Error) return this.fail(filter);
    // `$not` is always inside `$and`; with nothing before it, `$and` starts with an empty filter.
    const before = this.state.conditions.length ? this.state.conditions : [{}];
    return this.with({ conditions: [...before, { $not: [filter] }] } as Partial<S>);
  }
}

export function newFilter(): DataFilter {
  return new DataFilter({ conditions: [] });
}

/** A filter argument as the wire filter, or the builder's recorded error. */
export function resolveFilter(filter: DataFilter | Filter | undefined): Filter {
  if (filter === undefined) return {};
  if (filter instanceof DataFilter) {
    if (filter.validationError) throw filter.validationError;
    return filter.toFilter();
  }
  return filter;
}
