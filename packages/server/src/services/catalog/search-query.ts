// The catalog search's SQL, built from a request: pure, no I/O. Input only ever becomes a bound
// parameter; the statement's shape depends on which filters are present, never on their values.
//
// Ranking (the tier, highest first): an exact SKU (5), the query as a phrase at a word start in the
// name (4), every query word starting a word of the name (3), every word (stemmed, as a prefix) in
// the document — name, options, collections, brand, ribbon, description — or the query inside the
// name (2); when none of those finds anything, the typo match (1): each word as typed or one of its
// nearest words in the site's word list (trigram similarity ≥ FUZZY_THRESHOLD, which the caller's
// transaction sets), or the words typed apart joined. Ties: in stock first, then where the query's
// phrase starts in the name (a name that starts with it first), the shorter name (the query covers
// more of it), the name and the id, so an order is stable. Every key of that order is read from the
// row the index scan visits, so no match's document is read for the order (the text rank it
// replaces, ts_rank_cd, read every match's document: the README's "Catalog search").

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

/** pg_trgm's similarity a typo's word needs to a word of the word list: 0.4 lets one slip in a short word through ("benie"). */
export const FUZZY_THRESHOLD = 0.4;

/** Separates an option's name from its value in a facet key (product_search.facet_keys, product_facets.keys). */
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
  RELEVANCE: 'tier DESC, in_stock DESC, name_at, length(name_folded), name_folded, product_id',
  PRICE_ASC: 'price_minor, product_id',
  PRICE_DESC: 'price_minor DESC, product_id',
  NEWEST: 'created_at DESC, product_id',
  NAME: 'name_folded, product_id',
};

/** The query's folded phrase, its words, its SKU form and its text search query, as CTE q. */
function textQuery(text: string, site: string): string {
  return `q AS MATERIALIZED (
  SELECT f.phrase, nullif(replace(f.phrase, ' ', ''), f.phrase) AS joined, string_to_array(f.phrase, ' ') AS words, f.cfg,
    -- the products with the text as one of their SKUs (product_search_skus, migration 1140): a few ids
    ARRAY(SELECT sk.product_id FROM product_search_skus sk WHERE sk.site_id = ${site} AND sk.codes @> ARRAY[lower(btrim(${text}))]) AS coded,
    -- each word at a word start of a name (folded words are letters and digits: no LIKE wildcard)
    ARRAY(SELECT '% ' || w || '%' FROM unnest(string_to_array(f.phrase, ' ')) w) AS starts,
    to_tsquery(f.cfg, coalesce(nullif(array_to_string(ARRAY(SELECT w || ':*' FROM unnest(string_to_array(f.phrase, ' ')) w), ' & '), ''), '')) AS tsq
  FROM (SELECT search_fold(${text}) AS phrase, search_config(${site}) AS cfg) f
)`;
}

/**
 * CTE near: the typo query — each word as typed (a prefix) or one of its nearest words in the
 * site's word list, every word; or the words typed apart, joined. Only read when nothing matches
 * exactly (a scalar subquery is evaluated when first needed).
 */
function nearQuery(site: string): string {
  return `near AS (
  SELECT to_tsquery(q.cfg, coalesce(concat_ws(' | ',
      '(' || (SELECT string_agg('(' || search_word_alternatives(${site}, w) || ')', ' & ') FROM unnest(q.words) w WHERE w <> '') || ')',
      '(' || search_word_alternatives(${site}, q.joined) || ')'), '')) AS tsq
  FROM q
)`;
}

// Each arm is one of product_search's indexes, so an OR is a BitmapOr of index scans (an exact SKU:
// its products' primary keys).
const CODED = 'ps.product_id = ANY ((SELECT coded FROM q)::text[])';
const EXACT = `(${CODED} OR ps.name_folded LIKE '%' || (SELECT phrase FROM q) || '%'
  OR ps.document @@ (SELECT tsq FROM q))`;
// Under three letters there is no trigram to look up (a trigram arm would read every row): a
// word prefix or an exact SKU only, and no fuzzy match.
const SHORT_EXACT = `(${CODED} OR ps.document @@ (SELECT tsq FROM q))`;
const isShort = (text: string) => (text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) < 3;
// Read from the row the index scan visits anyway (the folded name, no document) and the SKUs' few ids.
const TIER = `CASE WHEN ${CODED} THEN 5
  WHEN position(' ' || (SELECT phrase FROM q) IN ' ' || ps.name_folded) > 0 THEN 4
  WHEN ' ' || ps.name_folded LIKE ALL ((SELECT starts FROM q)::text[]) THEN 3
  ELSE 2 END`;

/** What a match carries from its search row: the page's order, the filters and the facets read nothing else. */
const HIT_COLUMNS = 'ps.product_id, ps.name_folded, ps.in_stock, ps.price_minor, ps.on_sale, ps.created_at, ps.facet_keys AS keys, length(ps.name_folded) AS name_length';
/** Where the query's phrase starts a word of the name (1 for a name that starts with it; past any name when it is not there). */
const NAME_AT = `coalesce(nullif(position(' ' || (SELECT phrase FROM q) IN ' ' || ps.name_folded), 0), 100000)`;

/**
 * CTE `hit` of the products the text finds (HIT_COLUMNS and tier): ids from product_search's
 * indexes, everything else from the row the index scan visits, so no match is read twice and no
 * document is read. The fuzzy match (tier 1) runs only when nothing matches exactly — a typo's
 * results, never a tail of them — and is an index lookup of the corrected words (near).
 */
function matches(text: string, site: string, visibleOnly: boolean): string {
  const where = `ps.site_id = ${site}${visibleOnly ? ' AND ps.visible' : ''}`;
  const short = isShort(text);
  return `exact AS MATERIALIZED (
  SELECT ${HIT_COLUMNS}, ${TIER} AS tier, ${NAME_AT} AS name_at FROM product_search ps WHERE ${where} AND ${short ? SHORT_EXACT : EXACT}
), ${nearQuery(site)}, fuzzy AS (
  SELECT ${HIT_COLUMNS}, 1 AS tier, 0 AS name_at FROM product_search ps
  WHERE ${short ? 'false' : `${where} AND NOT EXISTS (SELECT 1 FROM exact) AND ps.document @@ (SELECT tsq FROM near)`}
), hit AS (SELECT * FROM exact UNION ALL SELECT * FROM fuzzy)`;
}

/**
 * For the catalog's own product queries (V3 search.expression, the back office's list): a join of
 * `products p` with the products the text finds, as `s` (search_tier, search_length); the site is $1.
 */
export function searchJoin(params: unknown[], text: string, visibleOnly: boolean): string {
  params.push(text);
  return `JOIN (WITH ${textQuery(`$${params.length}`, '$1')}, ${matches(text, '$1', visibleOnly)}
    SELECT product_id, tier AS search_tier, name_at AS search_at, name_length AS search_length FROM hit) s
    ON s.product_id = p.product_id`;
}
/** The relevance order of a searchJoin (the search's own: tier, in stock, the phrase's place in the name, the shorter name, the name, the id). */
export const SEARCH_JOIN_ORDER = 's.search_tier DESC, p.in_stock DESC, s.search_at, s.search_length, lower(p.name), p.product_id';

type Flag = 'coll' | 'price' | 'stock' | 'sale' | 'brand' | `opt${number}`;

/** Facet keys (product_facets.keys, migration 0990): a kind letter, then the value. */
const KEY = { collection: 'c', option: 'o', brand: 'b' } as const;

/**
 * The search or browse page: total, hits, and (when plan.facets) every facet's counts. Filters are
 * flags on each candidate row (m); a facet counts the rows that pass every other facet's filter.
 * Collections, option values and brands are counted in one pass over the rows' facet keys; stock,
 * sale and price buckets in one pass over the rows. Browsing reads product_facets, the narrow
 * table; a text search reads the rows it finds in product_search.
 */
export function searchStatement(plan: SearchPlan): Statement {
  const params: unknown[] = [plan.siteId, plan.text, plan.priceEdges.map(String)];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const searching = hasSearchText(plan.text);
  const flags = new Map<Flag, string>();
  const f = plan.filters;
  const keys = (kind: string, values: readonly string[]) => `keys && ${bind(values.map((v) => kind + v))}::text[]`;
  if (f.collectionIds?.length) flags.set('coll', keys(KEY.collection, f.collectionIds));
  if (f.priceBuckets?.length) flags.set('price', `(${priceRanges(plan.priceEdges, f.priceBuckets, bind)})`);
  if (f.inStock) flags.set('stock', 'in_stock');
  if (f.onSale) flags.set('sale', 'on_sale');
  if (f.brands?.length) flags.set('brand', keys(KEY.brand, f.brands));
  const optionNames: { flag: Flag; name: string }[] = [];
  Object.entries(f.options ?? {}).forEach(([name, values], i) => {
    if (values.length === 0) return;
    const flag: Flag = `opt${i}`;
    flags.set(flag, keys(KEY.option, values.map((v) => name + OPTION_SEPARATOR + v)));
    optionNames.push({ flag, name });
  });
  const allBut = (skip: (flag: Flag) => boolean) => [...flags.keys()].filter((k) => !skip(k)).map((k) => `f_${k}`).join(' AND ') || 'true';
  const all = (except?: Flag) => allBut((k) => k === except);
  const flagColumns = [...flags.entries()].map(([k, sql]) => `, ${sql} AS f_${k}`).join('');

  const buckets = plan.priceEdges.length + 1;
  const priceCounts = Array.from({ length: buckets }, (_, b) =>
    `json_build_array(${b}, count(*) FILTER (WHERE ${all('price')} AND width_bucket(price_minor, $3::bigint[]) = ${b}))`).join(', ');
  let tally = `tally AS (
  SELECT count(*) FILTER (WHERE ${all()}) AS total${plan.facets ? `,
    count(*) FILTER (WHERE ${all('stock')} AND in_stock) AS in_stock,
    count(*) FILTER (WHERE ${all('sale')} AND on_sale) AS on_sale,
    json_build_array(${priceCounts}) AS prices` : ''}
  FROM m
)`;
  const optionTest = optionNames.map(({ flag, name }) => ` AND (split_part(k, chr(31), 1) = ${bind(KEY.option + name)} OR f_${flag})`).join('');
  // A row failing two filters counts in no keyed facet: it is not unnested.
  const keyedRows = flags.size >= 2 ? `WHERE ${[all('coll'), all('brand'), allBut((k) => k.startsWith('opt'))].join(' OR ')}` : '';
  // With no filter every key of every row counts: no test per key.
  const keyTest = flags.size === 0 ? '' : `
  WHERE CASE left(k, 1) WHEN '${KEY.collection}' THEN ${all('coll')} WHEN '${KEY.brand}' THEN ${all('brand')}
    ELSE ${allBut((k) => k.startsWith('opt'))}${optionTest} END`;
  // The keys unnested in the select list (one ProjectSet over the rows) rather than a lateral
  // unnest() per row (a function scan started for each row): the grouping of a one-word search's
  // ~61,000 keys takes half the time (12 → 6.5 ms at load 0.8, the README's "Catalog search").
  const flagNames = [...flags.keys()].map((k) => `, f_${k}`).join('');
  let counts = `counts AS MATERIALIZED (
  SELECT k, count(*) AS n FROM (SELECT unnest(keys) AS k${flagNames} FROM m ${keyedRows}) r${keyTest}
  GROUP BY k
)`;
  const facets = plan.facets
    ? `,
  (SELECT coalesce(json_agg(json_build_array(x.id, c.name, x.n) ORDER BY x.n DESC, c.name, x.id), '[]')
     FROM (SELECT substr(k, 2) AS id, n FROM counts WHERE left(k, 1) = '${KEY.collection}') x
     JOIN product_collections c ON c.site_id = $1 AND c.collection_id = x.id${plan.visibleOnly ? ' AND c.visible' : ''}) AS collections,
  (SELECT coalesce(json_agg(json_build_array(substr(k, 2), n) ORDER BY substr(k, 2)), '[]') FROM counts WHERE left(k, 1) = '${KEY.option}') AS options,
  (SELECT prices FROM tally) AS prices,
  (SELECT in_stock FROM tally) AS in_stock,
  (SELECT on_sale FROM tally) AS on_sale,
  (SELECT coalesce(json_agg(json_build_array(substr(k, 2), n) ORDER BY n DESC, substr(k, 2)), '[]') FROM counts WHERE left(k, 1) = '${KEY.brand}') AS brands`
    : '';

  const visible = plan.visibleOnly ? ' AND ps.visible' : '';
  let found: string;
  const narrow = 'ps.product_id, ps.name_folded, ps.in_stock, ps.price_minor, ps.on_sale, ps.created_at, ps.keys';
  if (searching) {
    found = `${matches(plan.text, '$1', plan.visibleOnly)}, m AS MATERIALIZED (SELECT h.*${flagColumns} FROM hit h)`;
  } else if (flags.size === 0 && plan.facets && plan.priceEdges.every((edge) => FINE_PRICE_EDGES.includes(edge))) {
    // Nothing typed, nothing picked: the counts kept per key (migration 1091) instead of every
    // product's keys; the rows are read for the page only.
    found = `m AS (SELECT ${narrow}, 0 AS tier, 0 AS name_at FROM product_facets ps WHERE ps.site_id = $1${visible})`;
    ({ tally, counts } = keptCounts(plan.visibleOnly ? 'visible' : 'total'));
  } else {
    // With two filters or more, a row failing all of them counts in no facet: the filters' indexes
    // (product_facets_keys, product_facets_prices) find the others.
    const some = flags.size >= 2 ? ` AND (${[...flags.values()].join(' OR ')})` : '';
    found = `m AS MATERIALIZED (
  SELECT ${narrow}, 0 AS tier, 0 AS name_at${flagColumns}
  FROM product_facets ps WHERE ps.site_id = $1${visible}${some}
)`;
  }
  const sql = `WITH ${textQuery('$2', '$1')}, ${found}, ${tally}${plan.facets ? `, ${counts}` : ''}
SELECT
  (SELECT total FROM tally) AS total,
  -- the page: a bounded sort (the limit and offset kept), then its rows in that order again
  (SELECT coalesce(json_agg(h.product_id ORDER BY ${ORDER[plan.sort]}), '[]') FROM (
     SELECT * FROM m WHERE ${all()} ORDER BY ${ORDER[plan.sort]} LIMIT ${bind(plan.limit)} OFFSET ${bind(plan.offset)}) h) AS hits,
  cardinality($3::bigint[]) AS buckets,
  coalesce((SELECT version FROM product_search_versions WHERE site_id = $1), 0) AS version${facets}`;
  return { sql, params };
}

/**
 * The edges of the fine price buckets search_facet_counts counts by (search_price_edges(),
 * migration 1091): 25, 50, 100, 200 and 500 major units of a currency of 0 to 4 decimals. A site's
 * price buckets whose edges are all here are each a sum of fine buckets.
 */
export const FINE_PRICE_EDGES: readonly bigint[] = [...new Set([0, 1, 2, 3, 4].flatMap((e) => priceEdges(e)))].sort((a, b) => (a < b ? -1 : 1));

/**
 * CTEs tally and counts of a browse with nothing typed and nothing picked, from the counts kept per
 * key (`column`: of visible products, or of all): '*' every product, 's' in stock, 'd' on sale,
 * 'p' and a fine price bucket (summed into the site's buckets), the facet keys as they are.
 */
function keptCounts(column: 'visible' | 'total'): { tally: string; counts: string } {
  return {
    tally: `kept AS MATERIALIZED (
  SELECT key AS k, sum(${column}) AS n FROM search_facet_counts WHERE site_id = $1 GROUP BY key
), tally AS (
  SELECT coalesce(sum(n) FILTER (WHERE k = '*'), 0) AS total, coalesce(sum(n) FILTER (WHERE k = 's'), 0) AS in_stock,
    coalesce(sum(n) FILTER (WHERE k = 'd'), 0) AS on_sale,
    (SELECT json_agg(json_build_array(b, coalesce(x.n, 0)) ORDER BY b) FROM generate_series(0, cardinality($3::bigint[])) b
       LEFT JOIN (SELECT CASE WHEN i = 0 THEN 0 ELSE width_bucket((search_price_edges())[i], $3::bigint[]) END AS bucket, sum(n) AS n
         FROM (SELECT substr(k, 2)::int AS i, n FROM kept WHERE left(k, 1) = 'p') fine GROUP BY 1) x ON x.bucket = b) AS prices
  FROM kept
)`,
    counts: `counts AS (
  SELECT k, n FROM kept WHERE n > 0 AND left(k, 1) IN ('${KEY.collection}', '${KEY.option}', '${KEY.brand}')
)`,
  };
}

/** The picked price buckets as ranges of price_minor (indexable, unlike a bucket number). */
function priceRanges(edges: readonly bigint[], picked: readonly number[], bind: (value: unknown) => string): string {
  return picked.map((b) => {
    const from = b > 0 ? `price_minor >= ${bind(String(edges[b - 1]))}::bigint` : '';
    const to = b < edges.length ? `price_minor < ${bind(String(edges[b]))}::bigint` : '';
    return `(${[from, to].filter(Boolean).join(' AND ') || 'true'})`;
  }).join(' OR ');
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

/** Text folded as search_fold folds it, near enough to count its letters (accents off, lower case). */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Suggestions, first try: names with the typed text at a word start, from search_suggestions (a
 * name from each of its word starts, migration 0990). Its indexes are ordered by the first two
 * letters (migration 1090) or the first four (1170), then in stock first, then by name: the scan
 * starts at the typed letters' place, keeps the entries that start with all of the text and stops
 * at the limit — it reads a few entries more than it returns, not every match. From four letters
 * typed the walk is of the entries with those four letters only, so a rare word behind a common
 * start ("mezzo" behind "me") reads a few entries instead of every "me" entry. One letter typed is
 * a range of the first column, sorted. The site is $1, the text $2; `limit` is SQL.
 */
function suggestionTermsSql(text: string, visibleOnly: boolean, limit: string): string {
  const folded = foldText(text).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  // Four letters only when the text's first four are plain letters or digits, as search_fold
  // leaves them (else its folding could differ from foldText's): the two-letter walk is right for any text.
  const head = /^[a-z0-9]{4}/.test(folded) ? 'left(s.term, 4) = left(q.t, 4)'
    : folded.replace(/ /g, '').length >= 2 ? 'left(s.term, 2) = left(q.t, 2)'
      : 'left(s.term, 2) >= q.t AND left(s.term, 2) < q.t || chr(1114111)';
  return `SELECT s.product_id FROM search_suggestions s, (SELECT search_fold($2) COLLATE "C" AS t) q
      WHERE s.site_id = $1 AND ${head} AND s.term >= q.t AND s.term < q.t || chr(1114111)${visibleOnly ? ' AND s.visible' : ''}
      GROUP BY s.in_stock, s.name_folded, s.product_id
      ORDER BY s.in_stock DESC, s.name_folded, s.product_id LIMIT ${limit}`;
}

/** Suggestions' first try by itself (a corrected text's; search-explain's). */
export function suggestionTermsStatement(siteId: string, text: string, visibleOnly: boolean, limit: number): Statement {
  return { sql: suggestionTermsSql(text, visibleOnly, '$3'), params: [siteId, text, limit] };
}

/**
 * A suggestion's collections (up to `collections`) and its first try's products (up to `limit`
 * less the collections found) in one statement: one round trip fewer for each cold suggestion.
 */
export function suggestionStatement(siteId: string, text: string, visibleOnly: boolean, collections: number, limit: number): Statement {
  return {
    sql: `WITH c AS MATERIALIZED (${collectionsSql(visibleOnly, '$3')})
      SELECT coalesce((SELECT json_agg(json_build_array(c.collection_id, c.slug, c.name) ORDER BY c.later, c.name, c.collection_id) FROM c), '[]') AS collections,
        ARRAY(${suggestionTermsSql(text, visibleOnly, '$4 - (SELECT count(*) FROM c)')}) AS ids`,
    params: [siteId, text, collections, limit],
  };
}

/**
 * Suggestions, when the first try finds nothing (words in another order, another form of a word),
 * step one: the text as a prefix query on product names — every word starts a word of
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
 * Suggestions, step two: in stock first, then by name; the document index finds the matches and
 * they are sorted (the fallback of a text search_suggestions has no prefix for, so few match).
 */
export function namePrefixStatement(siteId: string, tsquery: string, visibleOnly: boolean, limit: number): Statement {
  return {
    sql: `SELECT ps.product_id FROM product_search ps
      WHERE ps.site_id = $1${visibleOnly ? ' AND ps.visible' : ''} AND ps.document @@ $2::tsquery
      ORDER BY ps.in_stock DESC, ps.name_folded, ps.product_id LIMIT $3`,
    params: [siteId, tsquery, limit],
  };
}

/** Collections whose name has the query (or is near it), for suggestions; the site is $1, the text $2. */
function collectionsSql(visibleOnly: boolean, limit: string): string {
  return `SELECT c.collection_id, c.slug, c.name, position(' ' || q.phrase IN ' ' || search_fold(c.name)) = 0 AS later FROM product_collections c
      CROSS JOIN (SELECT search_fold($2) AS phrase) q
      WHERE c.site_id = $1${visibleOnly ? ' AND c.visible' : ''} AND c.collection_id <> '00000000-000000-000000-000000000001'
        AND (position(' ' || q.phrase IN ' ' || search_fold(c.name)) > 0 OR word_similarity(q.phrase, search_fold(c.name)) >= 0.6)
      ORDER BY later, c.name, c.collection_id LIMIT ${limit}`;
}
