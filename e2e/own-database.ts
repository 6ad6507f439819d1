import pg from 'pg';

/**
 * An empty database of the test's own on DATABASE_URL's server (the server makes the demo store on an
 * empty database only). On a Citus cluster (BODEGA_CITUS=1) it is made on the coordinator and every
 * worker, with the extension and the workers added, so the server's migrations distribute it as they
 * distribute the shared one.
 */
export interface OwnDatabase {
  url: string;
  query(sql: string): Promise<Record<string, unknown>[]>;
  drop(): Promise<void>;
}

function at(url: string, host: string, port: number, database: string): string {
  const parsed = new URL(url);
  parsed.hostname = host;
  parsed.port = String(port);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function onNode<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createOwnDatabase(databaseUrl: string, name: string): Promise<OwnDatabase> {
  const coordinator = new URL(databaseUrl);
  const host = coordinator.hostname;
  const port = Number(coordinator.port || 5432);
  const citus = process.env.BODEGA_CITUS === '1';
  const workers = citus
    ? await onNode(databaseUrl, async (c) => (await c.query<{ nodename: string; nodeport: number }>(
      "SELECT nodename, nodeport FROM pg_dist_node WHERE noderole = 'primary' AND groupid <> 0 ORDER BY nodeid")).rows)
    : [];
  const nodes = [{ nodename: host, nodeport: port }, ...workers];
  for (const node of nodes) {
    await onNode(at(databaseUrl, node.nodename, node.nodeport, 'postgres'), async (c) => {
      const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount === 0) await c.query(`CREATE DATABASE ${name}`);
    });
    if (citus) await onNode(at(databaseUrl, node.nodename, node.nodeport, name), (c) => c.query('CREATE EXTENSION IF NOT EXISTS citus'));
  }
  if (citus) {
    await onNode(at(databaseUrl, host, port, name), async (c) => {
      await c.query('SELECT citus_set_coordinator_host($1, $2)', [host, port]);
      for (const w of workers) await c.query('SELECT citus_add_node($1, $2)', [w.nodename, w.nodeport]);
    });
  }
  return {
    url: at(databaseUrl, host, port, name),
    query: (sql) => onNode(at(databaseUrl, host, port, name), async (c) => (await c.query<Record<string, unknown>>(sql)).rows),
    async drop() {
      for (const node of nodes.reverse()) {
        await onNode(at(databaseUrl, node.nodename, node.nodeport, 'postgres'), (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      }
    },
  };
}
