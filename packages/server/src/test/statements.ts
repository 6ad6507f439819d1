import type { Db, Queryable, Row, Sql } from '../platform/db.js';

export interface StatementCount {
  /** The statements sent since the last reset, BEGIN and COMMIT included (each a round trip). */
  count(): number;
  reset(): void;
}

/**
 * Counts the statements sent through `db`, BEGIN and COMMIT included: node-postgres sends each
 * as its own round trip. It wraps the handle in place (every user of it is counted, an app's
 * requests too); tests and benches read counts, never timings.
 */
export function countStatements(db: Db): StatementCount {
  let n = 0;
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  db.query = <T extends Row = Row>(sql: Sql, params?: readonly unknown[]) => {
    n++;
    return query<T>(sql, params);
  };
  db.transaction = <T>(fn: (tx: Queryable) => Promise<T>) => {
    n += 2;
    return transaction((tx) => fn({
      query: <R extends Row = Row>(sql: Sql, params?: readonly unknown[]) => {
        n++;
        return tx.query<R>(sql, params);
      },
      exec: (sql: string) => {
        n++;
        return tx.exec(sql);
      },
    }));
  };
  return { reset: () => { n = 0; }, count: () => n };
}
