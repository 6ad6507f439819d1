/**
 * `npm run bench -- search-save-explain [--products N] [--saves S] [--plans]` (PGlite unless
 * DATABASE_URL is set): what the search index's refresh costs a product rename, part by part.
 * Generates N products (default 2,000) as `npm run bench -- search` does, then S times (default
 * 30) in a transaction that is rolled back: renames a product with the triggers off
 * (session_replication_role), times that UPDATE, and runs EXPLAIN (ANALYZE, BUFFERS) of the
 * refresh's statement (product_search_refresh_set's body, read from the database, with the site
 * and the product bound) — the statement the trigger runs after such a save. Prints the mean
 * update and refresh times and, per part of the refresh (its CTEs), the mean inclusive time, rows
 * and buffers: the profile the README's "Catalog search" quotes for the save ratio on PGlite.
 */
import { performance } from 'node:perf_hooks';
import { siteContext, withTransaction, type DbContext } from '../packages/server/src/platform/context.js';
import { startServer } from './lib.js';
import { generate } from './search.js';

interface PlanNode {
  'Node Type': string;
  'Subplan Name'?: string;
  'Actual Total Time'?: number;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Shared Dirtied Blocks'?: number;
  Plans?: PlanNode[];
}
interface Explained { Plan: PlanNode; 'Execution Time': number; 'Planning Time': number }

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
}

/** The refresh's one statement for one site, from the function's source: $1 the site, $2 the product ids. */
function refreshStatement(source: string): string {
  const body = source.replace(/--[^\n]*/g, '');
  const from = body.indexOf('WITH keys AS');
  const to = body.lastIndexOf('END LOOP');
  if (from < 0 || to < 0) throw new Error('product_search_refresh_set has no WITH keys … END LOOP: the profile needs updating');
  return body.slice(from, to).trim().replace(/;$/, '')
    .replace(/\bunnest\(site_ids, product_ids\)/g, 'unnest(array_fill($1::text, ARRAY[cardinality($2::text[])]), $2::text[])')
    .replace(/\bsession_stripe\b/g, '0::smallint')
    .replace(/\bsite\b/g, '$1::text');
}

export default async function searchSaveExplain(args: string[]): Promise<void> {
  const products = option(args, 'products', 2000);
  const saves = option(args, 'saves', 30);
  const server = await startServer();
  try {
    const { db } = server;
    const created = await server.app.services.sites.createSite({ name: 'bench search save' });
    const siteId = created.site.siteId;
    await generate(server, siteId, products);
    const [{ prosrc }] = await db.query<{ prosrc: string }>(`SELECT prosrc FROM pg_proc WHERE proname = 'product_search_refresh_set'`);
    const statement = refreshStatement(prosrc);
    // --plan-cache-mode auto|force_generic_plan|force_custom_plan: how the trigger's refresh is planned (PGlite: one session)
    const planMode = args.indexOf('--plan-cache-mode');
    if (planMode >= 0) await db.exec(`SET plan_cache_mode = ${['auto', 'force_generic_plan', 'force_custom_plan'].includes(args[planMode + 1]) ? args[planMode + 1] : 'auto'}`);
    console.log(`search-save-explain — ${server.database}, ${products} products, ${saves} renames (each rolled back)`);

    const parts = new Map<string, { ms: number; rows: number; buffers: number; n: number }>();
    let updateMs = 0;
    // the first rename with the triggers on plans the refresh: not counted (a running shop's plans are made)
    let triggeredMs = 0;
    let refreshMs = 0;
    const profiled = args.includes('--plans') ? saves - 1 : saves;
    let planningMs = 0;
    let lastPlan = '';
    // Each rename with the triggers on first: setting session_replication_role (below) empties the
    // session's plan cache, so a rename with the triggers on after one would plan the refresh again.
    const rollback = new Error('rolled back');
    /** Runs fn in a transaction that is rolled back, so every rename profiles the same catalog. */
    const rolledBack = (fn: (tx: DbContext) => Promise<void>) => withTransaction(siteContext(db, siteId, () => new Date()), async (tx) => {
      await fn(tx);
      throw rollback;
    }).catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
    const productOf = (i: number) => `bench-p${1 + (i * 97) % products}`;
    /** Renames the i-th product after `setup`; the UPDATE's time in ms. */
    const rename = async (tx: DbContext, i: number, setup: string) => {
      await tx.db.exec(setup);
      const start = performance.now();
      await tx.db.query('UPDATE products SET name = $3, updated_at = now() WHERE site_id = $1 AND product_id = $2', [siteId, productOf(i), `Renamed Bench Lamp ${i}`]);
      return performance.now() - start;
    };
    for (let i = 0; i < saves; i++) {
      // The same rename with the triggers on: the UPDATE, the trigger's own statement (which
      // products changed what the index holds), the refresh and the version's raise (made
      // immediate, as the commit would run it).
      await rolledBack(async (tx) => {
        const ms = await rename(tx, i, 'SET CONSTRAINTS ALL IMMEDIATE');
        if (i > 0) triggeredMs += ms;
      });
    }
    for (let i = 0; i < saves; i++) {
      const productId = productOf(i);
      await rolledBack(async (tx) => {
        const elapsed = await rename(tx, i, 'SET LOCAL session_replication_role = replica');
        if (i === saves - 1 && args.includes('--plans')) {
          // The last rename's plan as text instead (a second run in the same transaction would find the row written).
          const text = await tx.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement}`, [siteId, [productId]]);
          lastPlan = text.map((r) => `    ${r['QUERY PLAN']}`).join('\n');
          return;
        }
        updateMs += elapsed;
        const rows = await tx.db.query<{ 'QUERY PLAN': Explained[] | string }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement}`, [siteId, [productId]]);
        const plan = rows[0]['QUERY PLAN'];
        const explained = (typeof plan === 'string' ? JSON.parse(plan) as Explained[] : plan)[0];
        refreshMs += explained['Execution Time'];
        planningMs += explained['Planning Time'];
        for (const node of explained.Plan.Plans ?? []) {
          const name = node['Subplan Name'] ?? node['Node Type'];
          const part = parts.get(name) ?? { ms: 0, rows: 0, buffers: 0, n: 0 };
          part.ms += (node['Actual Total Time'] ?? 0) * (node['Actual Loops'] ?? 1);
          part.rows += node['Actual Rows'] ?? 0;
          part.buffers += (node['Shared Hit Blocks'] ?? 0) + (node['Shared Read Blocks'] ?? 0);
          part.n += 1;
          parts.set(name, part);
        }
      });
    }
    console.log(`  the rename's UPDATE (triggers off)  mean ${(updateMs / profiled).toFixed(2)} ms`);
    console.log(`  the same UPDATE, triggers on         mean ${(triggeredMs / (saves - 1)).toFixed(2)} ms (the index's triggers and the version's raise)`);
    console.log(`  the refresh's statement             mean ${(refreshMs / profiled).toFixed(2)} ms to run, ${(planningMs / profiled).toFixed(2)} ms to plan (a running shop's trigger keeps its plan)`);
    console.log('  its parts (inclusive: a part that reads a CTE first pays for computing it):');
    for (const [name, p] of parts) {
      console.log(`    ${name.padEnd(28)} ${(p.ms / p.n).toFixed(2).padStart(7)} ms ${(p.rows / p.n).toFixed(1).padStart(7)} rows ${(p.buffers / p.n).toFixed(0).padStart(6)} buffers`);
    }
    if (lastPlan) console.log(lastPlan);
  } finally {
    await server.close();
  }
}
