/**
 * `npm run bench -- search-explain [--site ID]` (DATABASE_URL for PostgreSQL): EXPLAIN (ANALYZE,
 * BUFFERS) of each kind of catalog search and suggestion, as a visitor, on the largest catalog
 * `npm run bench -- search` left in the database (or the site given). Buffer counts depend on the
 * data and the plan, not on the machine's load, so two runs at different loads compare; the times
 * printed beside them do not. Prints per statement: shared buffers (hit + read), temp blocks, the
 * rows of the statement's main CTEs, the execution time, and the plan with --plans.
 */
import { siteContext, withTransaction } from '../packages/server/src/platform/context.js';
import { openDb } from '../packages/server/src/platform/db.js';
import { migrate } from '../packages/server/src/platform/migrate.js';
import {
  priceEdges, searchStatement, suggestionStatement, suggestionTermsStatement, type SearchFilters, type Statement,
} from '../packages/server/src/services/catalog/search-query.js';
import { setFuzzyThreshold } from '../packages/server/src/services/catalog/search-store.js';

interface PlanNode {
  'Node Type': string;
  'Subplan Name'?: string;
  'CTE Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Temp Read Blocks'?: number;
  'Temp Written Blocks'?: number;
  Plans?: PlanNode[];
}
interface Explained { Plan: PlanNode; 'Execution Time': number }

function walk(node: PlanNode, visit: (n: PlanNode) => void): void {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

export default async function searchExplain(args: string[]): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('search-explain reads a catalog that `npm run bench -- search` left: set DATABASE_URL');
  const db = await openDb({ databaseUrl });
  try {
    await migrate(db);
    const at = args.indexOf('--site');
    const siteId = at >= 0 ? args[at + 1] : (await db.query<{ site_id: string }>(
      `SELECT site_id FROM product_facets WHERE product_id = 'bench-p1' ORDER BY (SELECT count(*) FROM product_facets f WHERE f.site_id = product_facets.site_id) DESC, site_id LIMIT 1`))[0]?.site_id;
    if (!siteId) throw new Error('no bench catalog in this database: run `npm run bench -- search` first');
    const [{ n }] = await db.query<{ n: string }>('SELECT count(*) AS n FROM product_facets WHERE site_id = $1', [siteId]);
    console.log(`search-explain — site ${siteId}, ${n} products; EXPLAIN (ANALYZE, BUFFERS) as a visitor`);
    const showPlans = args.includes('--plans');

    const search = (text: string, filters: SearchFilters = {}): Statement => searchStatement({
      siteId, text, filters, visibleOnly: true, sort: text ? 'RELEVANCE' : 'NAME', limit: 24, offset: 0, priceEdges: priceEdges(2), facets: true,
    });
    const cases: [string, Statement][] = [
      ['one word ("wool")', search('wool')],
      ['two words ("merino sweater")', search('merino sweater')],
      ['a typo ("swater")', search('swater')],
      ['word + colour + in stock ("wool", Colour Oat)', search('wool', { options: { Colour: ['Oat'] }, inStock: true })],
      ['no text, collection + price (25-50)', search('', { collectionIds: ['bench-c3'], priceBuckets: [1] })],
      ['no text, no filter', search('')],
      ['suggestion, 2 letters ("me")', suggestionTermsStatement(siteId, 'me', true, 8)],
      ['suggestion, 3 letters ("swe")', suggestionTermsStatement(siteId, 'swe', true, 8)],
      ['suggestion, 5 letters ("merin")', suggestionTermsStatement(siteId, 'merin', true, 8)],
      ['suggestion, rare ("mezzo")', suggestionTermsStatement(siteId, 'mezzo', true, 8)],
      ['suggestion with collections, one statement ("wool")', suggestionStatement(siteId, 'wool', true, 3, 8)],
    ];
    const ctx = siteContext(db, siteId, () => new Date());
    for (const [label, statement] of cases) {
      const explained = await withTransaction(ctx, async (tx) => {
        await setFuzzyThreshold(tx);
        const rows = await tx.db.query<{ 'QUERY PLAN': Explained[] | string }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.sql}`, statement.params);
        const plan = rows[0]['QUERY PLAN'];
        return (typeof plan === 'string' ? JSON.parse(plan) as Explained[] : plan)[0];
      });
      const top = explained.Plan;
      const ctes: string[] = [];
      walk(top, (node) => {
        const name = node['Subplan Name'];
        if (name?.startsWith('CTE ')) ctes.push(`${name.slice(4)} ${node['Actual Rows'] ?? 0} rows`);
      });
      console.log(`  ${label.padEnd(52)} ${String((top['Shared Hit Blocks'] ?? 0) + (top['Shared Read Blocks'] ?? 0)).padStart(7)} buffers` +
        `${top['Temp Written Blocks'] ? `, ${top['Temp Written Blocks']} temp blocks` : ''}, ${explained['Execution Time'].toFixed(1)} ms; ${ctes.join(', ')}`);
      if (showPlans) {
        const text = await withTransaction(ctx, async (tx) => {
          await setFuzzyThreshold(tx);
          return tx.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, statement.params);
        });
        console.log(text.map((r) => `      ${r['QUERY PLAN']}`).join('\n'));
      }
    }
  } finally {
    await db.close();
  }
}
