/**
 * What one request sends to Citus's workers: the statements the app runs for it (caught on the
 * server's Db), replayed on a connection of their own with `citus.log_remote_commands` on; every
 * command the coordinator sends a worker comes back as a notice. A statement the app ran inside a
 * transaction is replayed inside one that is rolled back; one the app ran on its own (autocommit,
 * which is what lets Citus delegate a distributed function's call) is replayed on its own, so a
 * replayed write happens once more (e.g. one more add to the same cart). Used by `npm run bench -- citus`.
 */
import pg from 'pg';
import type { Queryable, Row, Sql } from '../../packages/server/src/platform/db.js';
import type { BenchServer } from '../lib.js';

export interface Statement {
  text: string;
  params: readonly unknown[];
  /** The app ran it inside a transaction (db.transaction), not on its own. */
  inTransaction: boolean;
}

/** Every statement the server's Db runs while `fn` runs (BEGIN/COMMIT left out). */
export async function statementsOf(server: BenchServer, fn: () => Promise<void>): Promise<Statement[]> {
  const caught: Statement[] = [];
  const db = server.db;
  const { query, transaction } = db;
  const text = (sql: Sql) => (typeof sql === 'string' ? sql : sql.text);
  db.query = <T extends Row = Row>(sql: Sql, params: readonly unknown[] = []) => {
    caught.push({ text: text(sql), params, inTransaction: false });
    return query.call(db, sql, params) as Promise<T[]>;
  };
  db.transaction = <T>(inner: (tx: Queryable) => Promise<T>) => transaction.call(db, (tx) => inner({
    query: <R extends Row = Row>(sql: Sql, params: readonly unknown[] = []) => {
      caught.push({ text: text(sql), params, inTransaction: true });
      return tx.query<R>(sql, params);
    },
    exec: (sql: string) => {
      caught.push({ text: sql, params: [], inTransaction: true });
      return tx.exec(sql);
    },
  })) as Promise<T>;
  try {
    await fn();
  } finally {
    db.query = query;
    db.transaction = transaction;
  }
  return caught;
}

export interface RemoteProfile {
  statement: string;
  /** The commands the coordinator sent to workers for it (BEGIN/COMMIT/PREPARE included). */
  remote: string[];
  /** The commands run on the coordinator's own shards (it holds reference tables and may hold shards). */
  local: string[];
}

/** Replays the statements (see the top of this file) and answers what each one sent. */
export async function remoteCommandsOf(url: string, statements: readonly Statement[]): Promise<RemoteProfile[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let notices: string[] = [];
  client.on('notice', (notice) => notices.push(notice.message ?? ''));
  const profiles: RemoteProfile[] = [];
  let open = false;
  try {
    await client.query(`SET citus.log_remote_commands = on; SET citus.log_local_commands = on; SET client_min_messages = log`);
    for (const statement of statements) {
      if (statement.inTransaction !== open) {
        await client.query(open ? 'ROLLBACK' : 'BEGIN');
        open = !open;
      }
      notices = [];
      if (open) await client.query('SAVEPOINT replay');
      try {
        await client.query(statement.text, statement.params as unknown[]);
      } catch (error) {
        notices.push(`(failed on replay: ${(error as Error).message})`);
        if (open) await client.query('ROLLBACK TO SAVEPOINT replay');
      }
      // The savepoint's own commands are the replay's, not the app's.
      const remote = notices.filter((n) => n.startsWith('issuing ') && !/SAVEPOINT replay/.test(n)).map((n) => n.replace(/^issuing /, ''));
      const local = notices.filter((n) => n.startsWith('executing the command locally: ')).map((n) => n.replace(/^executing the command locally: /, ''));
      profiles.push({ statement: statement.text, remote, local });
    }
  } finally {
    if (open) await client.query('ROLLBACK').catch(() => undefined);
    await client.end();
  }
  return profiles;
}
