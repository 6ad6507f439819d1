import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorState, Loading } from '../ui/States.js';

export interface ListColumn {
  label: ReactNode;
  className?: string;
}

/**
 * A list page's table from its query: loading and error states, a captioned table that turns into
 * cards on phones, one header per column and a line when the list is empty. `row` renders a <tr>.
 */
export function ListTable<T>({ query, items, caption, loading, empty, columns, row }: {
  query: Pick<UseQueryResult<unknown>, 'isPending' | 'isError' | 'error' | 'refetch' | 'isFetching'>;
  /** The rows, once the query has them. */
  items: readonly T[] | undefined;
  caption: string;
  loading: string;
  empty: ReactNode;
  columns: readonly ListColumn[];
  row: (item: T) => ReactNode;
}) {
  if (query.isPending) return <Loading label={loading} />;
  if (query.isError) return <ErrorState error={query.error} retry={() => void query.refetch()} />;
  const list = items ?? [];
  return (
    <div className="table-wrap" aria-busy={query.isFetching}>
      <table className="table cards">
        <caption className="visually-hidden">{caption}</caption>
        <thead><tr>{columns.map((c, i) => <th key={i} scope="col" className={c.className}>{c.label}</th>)}</tr></thead>
        <tbody>
          {list.length === 0 && <tr><td colSpan={columns.length} className="muted">{empty}</td></tr>}
          {list.map(row)}
        </tbody>
      </table>
    </div>
  );
}

/** A column header read by screen readers only (a column of row actions). */
export const actionsColumn: ListColumn = { label: <span className="visually-hidden">Actions</span> };
