// The catalog search's SQL, built from a request: pure, no I/O. Input only ever becomes a bound
// parameter; the statement's shape depends on which filters are present, never on their values.
//
// Ranking (the tier, highest first): an exact SKU (5), the query as a phrase at a word start in the
// name (4), every query word starting a word of the name (3), every word (stemmed, as a prefix) in
// the document — name, options, collections, brand, ribbon, description — or the query inside the
// name (2); when none of those finds anything, a fuzzy trigram match for typos and words typed
// apart (1), whose threshold the caller's transaction sets (FUZZY_THRESHOLD). Ties: in stock first, then the text rank, the
// name and the id, so an order is stable.

export type SearchSort = 'RELEVANCE' | 'PRICE_ASC' | 'PRICE_DESC' | 'NEWEST' | 'NAME';

export interface SearchFilters {
  /** OR within each facet, AND across facets. */
  collectionIds?: readonly string[];
  /** Option name → values. */
  options?: Readonly<Record<string, readonly string[]>>;
  /** Indexes into the price buckets. */
  priceBuckets?: readonly number[];
  inStock?: boolean;
  onSale?: boolean;
  brands?: readonly string[];
}

export interface SearchPlan {
  siteId: string;
  text: string;
  filters: SearchFilters;
  visibleOnly: boolean;
  sort: SearchSort;
  limit: number;
  offset: number;
  /** Upper edges of the price buckets, in minor units (the last bucket has none). */
  priceEdges: readonly bigint[];
  facets: boolean;
}

export interface Statement {
  sql: string;
  params: unknown[];
}

/** pg_trgm's word similarity a fuzzy match needs: 0.4 lets one slip in a short word through ("benie"). */
export const FUZZY_THRESHOLD = 0.4;

/** Separates an option's name from its value in product_search.options. */
export const OPTION_SEPARATOR = '\u001f';

/** Whether a query has anything to search for (else it is browsing). */
export function hasSearchText(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/** Price bucket edges for a currency: 25, 50, 100, 200 and 500 major units. */
export function priceEdges(exponent: number): bigint[] {
  const unit = 10n ** BigInt(exponent);
  return [25n, 50n, 100n, 200n, 500n].map((n) => n * unit);
}

const ORDER: Record<SearchSort, string> = {
  RELEVANCE: 'tier DESC, in_stock DESC, score DESC, name_folded, product_id',
  PRICE_ASC: 'price_minor, product_id',
  PRICE_DESC: 'price_minor DESC, product_id',
  NEWEST: 'created_at DESC, product_id',
  NAME: 'name_folded, product_id',
};

/** The query's folded phrase, its words, its SKU form and its text search query, as CTE q. */
function textQuery(text: string, site: string): string {
  return `q AS MATERIALIZED (
  SELECT f.phrase, nullif(replace(f.phrase, ' ', ''), f.phrase) AS joined, string_to_array(f.phrase, ' ') AS words, lower(btrim(${text})) AS code,
    to_tsquery(f.cfg, coalesce(nullif(array_to_string(ARRAY(SELECT w || ':*' FROM unnest(string_to_array(f.phrase, ' ')) w), ' & '), ''), '')) AS tsq
  FROM (SELECT search_fold(${text}) AS phrase, search_config(${site}) AS cfg) f
)`;
}

// Each arm is one of product_search's indexes, so an OR is a BitmapOr of index scans.
const EXACT = `(ps.codes @> ARRAY[(SELECT code FROM q)] OR ps.name_folded LIKE '%' || (SELECT phrase FROM q) || '%'
  OR ps.document @@ (SELECT tsq FROM q))`;
// Under three letters there is no trigram to look up (a trigram arm would read every row): a
// word prefix or an exact SKU only, and no fuzzy match.
const SHORT_EXACT = `(ps.codes @> ARRAY[(SELECT code FROM q)] OR ps.document @@ (SELECT tsq FROM q))`;
const FUZZY = `((SELECT phrase FROM q) <% ps.terms OR (SELECT joined FROM q) <% ps.terms)`;
const isShort = (text: string) => (text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) < 3;
const TIER = `CASE WHEN ps.codes @> ARRAY[(SELECT code FROM q)] THEN 5
  WHEN position(' ' || (SELECT phrase FROM q) IN ' ' || ps.name_folded) > 0 THEN 4
  WHEN NOT EXISTS (SELECT 1 FROM unnest((SELECT words FROM q)) w WHERE position(' ' || w IN ' ' || ps.name_folded) = 0) THEN 3
  ELSE 2 END`;
const EXACT_SCORE = `CASE WHEN ps.document @@ (SELECT tsq FROM q) THEN ts_rank_cd(ps.document, (SELECT tsq FROM q)) ELSE 0 END`;
const FUZZY_SCORE = `greatest(word_similarity((SELECT phrase FROM q), ps.terms), coalesce(word_similarity((SELECT joined FROM q), ps.terms), 0))`;

/**
 * CTEs `exact` and `fuzzy` of the products the text finds, each with `columns` of product_search
 * ps, tier and score. The fuzzy match (tier 1, the costly one: word similarity over each
 * candidate) runs only when nothing matches exactly — a typo's results, never a tail of them.
 */
function matches(text: string, site: string, columns: string, visibleOnly: boolean): string {
  const where = `ps.site_id = ${site}${visibleOnly ? ' AND ps.visible' : ''}`;
  const short = isShort(text);
  return `exact AS MATERIALIZED (
  SELECT ${columns}, ${TIER} AS tier, ${EXACT_SCORE} AS score FROM product_search ps WHERE ${where} AND ${short ? SHORT_EXACT : EXACT}
), fuzzy AS (
  SELECT ${columns}, 1 AS tier, ${FUZZY_SCORE} AS score FROM product_search ps
  WHERE ${short ? 'false' : `${where} AND NOT EXISTS (SELECT 1 FROM exact) AND ${FUZZY}`}
)`;
}

/**
 * For the catalog's own product queries (V3 search.expression, the back office's list): a join of
 * `products p` with the products the text finds, as `s` (search_tier, search_score); the site is $1.
 */
export function searchJoin(params: unknown[], text: string, visibleOnly: boolean): string {
  params.push(text);
  return `JOIN (WITH ${textQuery(`$${params.length}`, '$1')}, ${matches(text, '$1', 'ps.product_id', visibleOnly)}
    SELECT product_id, tier AS search_tier, score AS search_score FROM exact UNION ALL SELECT product_id, tier, score FROM fuzzy) s
    ON s.product_id = p.product_id`;
}
/** The relevance order of a searchJoin. */
export const SEARCH_JOIN_ORDER = 's.search_tier DESC, p.in_stock DESC, s.search_score DESC, lower(p.name), p.product_id';

type Flag = 'coll' | 'price' | 'stock' | 'sale' | 'brand' | `opt${number}`;

export function searchStatement(plan: SearchPlan): Statement {
  const params: unknown[] = [plan.siteId, plan.text, plan.priceEdges.map(String)];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const searching = hasSearchText(plan.text);
  const flags = new Map<Flag, string>();
  const f = plan.filters;
  if (f.collectionIds?.length) flags.set('coll', `ps.collection_ids && ${bind(f.collectionIds)}::text[]`);
  if (f.priceBuckets?.length) flags.set('price', `width_bucket(ps.price_minor, $3::bigint[]) = ANY(${bind(f.priceBuckets)}::int[])`);
  if (f.inStock) flags.set('stock', 'ps.in_stock');
  if (f.onSale) flags.set('sale', 'ps.on_sale');
  if (f.brands?.length) flags.set('brand', `ps.brand = ANY(${bind(f.brands)}::text[])`);
  const optionNames: { flag: Flag; name: string }[] = [];
  Object.entries(f.options ?? {}).forEach(([name, values], i) => {
    if (values.length === 0) return;
    const flag: Flag = `opt${i}`;
    flags.set(flag, `ps.options && ${bind(values.map((v) => name + OPTION_SEPARATOR + v))}::text[]`);
    optionNames.push({ flag, name });
  });
  const allBut = (skip: (flag: Flag) => boolean) => [...flags.keys()].filter((k) => !skip(k)).map((k) => `f_${k}`).join(' AND ') || 'true';
  const all = (except?: Flag) => allBut((k) => k === except);

  const flagColumns = [...flags.entries()].map(([k, sql]) => `, ${sql} AS f_${k}`).join('');

  const facets = plan.facets
    ? `,
  (SELECT coalesce(json_agg(json_build_array(x.id, c.name, x.n) ORDER BY x.n DESC, c.name, x.id), '[]')
     FROM (SELECT id, count(*) AS n FROM m, unnest(m.collection_ids) id WHERE ${all('coll')} GROUP BY id) x
     JOIN product_collections c ON c.site_id = $1 AND c.collection_id = x.id${plan.visibleOnly ? ' AND c.visible' : ''}) AS collections,
  (SELECT coalesce(json_agg(json_build_array(x.o, x.n) ORDER BY x.o), '[]')
     FROM (SELECT o, count(*) AS n FROM m, unnest(m.options) o
       WHERE ${allBut((k) => k.startsWith('opt'))}${optionNames
         .map(({ flag, name }) => ` AND (split_part(o, chr(31), 1) = ${bind(name)} OR f_${flag})`).join('')}
       GROUP BY o) x) AS options,
  (SELECT coalesce(json_agg(json_build_array(x.b, x.n) ORDER BY x.b), '[]')
     FROM (SELECT width_bucket(price_minor, $3::bigint[]) AS b, count(*) AS n FROM m WHERE ${all('price')} GROUP BY 1) x) AS prices,
  (SELECT count(*) FROM m WHERE ${all('stock')} AND in_stock) AS in_stock,
  (SELECT count(*) FROM m WHERE ${all('sale')} AND on_sale) AS on_sale,
  (SELECT coalesce(json_agg(json_build_array(x.brand, x.n) ORDER BY x.n DESC, x.brand), '[]')
     FROM (SELECT brand, count(*) AS n FROM m WHERE ${all('brand')} AND brand IS NOT NULL GROUP BY brand) x) AS brands`
    : '';

  const columns = 'ps.product_id, ps.name_folded, ps.in_stock, ps.price_minor, ps.on_sale, ps.brand, ps.collection_ids, ps.options, ps.created_at';
  const found = searching
    ? `${matches(plan.text, '$1', columns, plan.visibleOnly)}, m AS MATERIALIZED (
  SELECT ps.*${flagColumns} FROM (SELECT * FROM exact UNION ALL SELECT * FROM fuzzy) ps
)`
    : `m AS MATERIALIZED (
  SELECT ${columns}, 0 AS tier, 0 AS score${flagColumns} FROM product_search ps WHERE ps.site_id = $1${plan.visibleOnly ? ' AND ps.visible' : ''}
)`;
  const sql = `WITH ${textQuery('$2', '$1')}, ${found}
SELECT
  (SELECT count(*) FROM m WHERE ${all()}) AS total,
  (SELECT coalesce(json_agg(h.product_id ORDER BY h.rn), '[]') FROM (
     SELECT product_id, row_number() OVER (ORDER BY ${ORDER[plan.sort]}) AS rn FROM m WHERE ${all()}
     ORDER BY ${ORDER[plan.sort]} LIMIT ${bind(plan.limit)} OFFSET ${bind(plan.offset)}) h) AS hits,
  cardinality($3::bigint[]) AS buckets,
  coalesce((SELECT version FROM product_search_versions WHERE site_id = $1), 0) AS version${facets}`;
  return { sql, params };
}

/**
 * For "did you mean" and a mistyped suggestion: each query word's nearest word in the site's word
 * list (search_words, by trigrams; the caller's transaction sets the threshold), among the ten
 * nearest the first that a product the caller may see still has in its name, options, brand,
 * ribbon or collections.
 */
export function nearestWordsStatement(siteId: string, text: string, visibleOnly: boolean): Statement {
  return {
    sql: `SELECT qw.i, (SELECT c.word FROM (
          SELECT sw.word, similarity(sw.word, qw.word) AS near FROM search_words sw
          WHERE sw.site_id = $1 AND qw.word <% sw.word AND length(sw.word) > 2
          ORDER BY near DESC, sw.word LIMIT 10) c
        WHERE EXISTS (SELECT 1 FROM product_search ps WHERE ps.site_id = $1${visibleOnly ? ' AND ps.visible' : ''}
          AND ps.document @@ to_tsquery(search_config($1), quote_literal(c.word) || ':ABC'))
        ORDER BY c.near DESC, c.word LIMIT 1) AS nearest
      FROM unnest(string_to_array(search_fold($2), ' ')) WITH ORDINALITY AS qw(word, i) ORDER BY qw.i`,
    params: [siteId, text],
  };
}

/**
 * Suggestions, step one: the text as a prefix query on product names — every word starts a word of
 * the name, stemmed or as typed. Its own statement, so the next one is planned with its value.
 */
export function namePrefixQueryStatement(siteId: string, text: string): Statement {
  return {
    sql: `SELECT (to_tsquery(search_config($1), t.q) || to_tsquery('simple', t.q))::text AS tsq
      FROM (SELECT array_to_string(ARRAY(SELECT quote_literal(w) || ':*A' FROM unnest(string_to_array(search_fold($2), ' ')) w WHERE w <> ''), ' & ') AS q) t`,
    params: [siteId, text],
  };
}

/**
 * Suggestions, step two: in stock first, then by name. When many names match, the planner walks
 * product_search_suggest_order and stops at the limit; when few do, the document index finds them
 * and they are sorted — either way the work is bounded by the answer, not the catalog.
 */
export function namePrefixStatement(siteId: string, tsquery: string, visibleOnly: boolean, limit: number): Statement {
  return {
    sql: `SELECT ps.product_id FROM product_search ps
      WHERE ps.site_id = $1${visibleOnly ? ' AND ps.visible' : ''} AND ps.document @@ $2::tsquery
      ORDER BY ps.in_stock DESC, ps.name_folded, ps.product_id LIMIT $3`,
    params: [siteId, tsquery, limit],
  };
}

/** Collections whose name has the query (or is near it), for suggestions. */
export function collectionSuggestionsStatement(siteId: string, text: string, visibleOnly: boolean, limit: number): Statement {
  return {
    sql: `SELECT c.collection_id, c.slug, c.name FROM product_collections c
      CROSS JOIN (SELECT search_fold($2) AS phrase) q
      WHERE c.site_id = $1${visibleOnly ? ' AND c.visible' : ''} AND c.collection_id <> '00000000-000000-000000-000000000001'
        AND (position(' ' || q.phrase IN ' ' || search_fold(c.name)) > 0 OR word_similarity(q.phrase, search_fold(c.name)) >= 0.6)
      ORDER BY position(' ' || q.phrase IN ' ' || search_fold(c.name)) = 0, c.name, c.collection_id LIMIT $3`,
    params: [siteId, text, limit],
  };
}
