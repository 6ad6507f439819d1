-- Catalog search at 100,000 products, continued (services/catalog/search-query.ts; the README's
-- "Catalog search"):
--   * search_facet_counts: how many products (all, and visible ones) have each facet key — a
--     collection, an option value, a brand (product_facets.keys) — and are at all ('*'), in stock
--     ('s'), on sale ('d') and in each fine price bucket ('p' and search_price_edges' bucket).
--     The refresh adds what a product written gives and takes what its row as it was gave, in the
--     transaction of the write. A browse with nothing typed and nothing picked (the storefront's
--     /search opened) reads these few rows instead of unnesting every product's keys (913,071 at
--     100,000 products).
--   * Counts are sums over 16 stripes: each session adds to the stripe of its backend id, so
--     concurrent saves of one site rarely wait for one another's counts (a row of one stripe is
--     locked by its saver until it commits); a reader sums the stripes in its snapshot, so what it
--     reads is exactly the committed products'. Rows are written in key order (no deadlock between
--     two savers of one stripe within a statement).
--   * product_search.facet_keys: the product's facet keys on its search row too, so a text search
--     counts its matches' facets from the rows its index scan visits anyway (joining the matches'
--     product_facets rows cost an index probe each: 31,264 buffers for a word matching 6,480
--     products, against 5,367 for the search rows alone), and no longer computes the keys of
--     every match (search_facet_keys per row).
--   * The fine price buckets' edges are every edge the search's price buckets can have (25, 50,
--     100, 200 and 500 major units of a currency of 0 to 4 decimals), so each bucket of a site's
--     currency is a sum of fine buckets, and a change of currency changes no count.

CREATE TABLE search_facet_counts (
  site_id  text NOT NULL,
  stripe   smallint NOT NULL,
  key      text NOT NULL,
  visible  bigint NOT NULL,
  total    bigint NOT NULL,
  PRIMARY KEY (site_id, stripe, key)
);

-- (The default only fills the column at once; the refresh always writes it, and the rows of before
-- are written here.)
ALTER TABLE product_search ADD COLUMN facet_keys text[] NOT NULL DEFAULT '{}';
UPDATE product_search SET facet_keys = search_facet_keys(collection_ids, options, brand);

CREATE FUNCTION search_price_edges() RETURNS bigint[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY(SELECT DISTINCT (m * power(10::numeric, e))::bigint FROM unnest(ARRAY[25, 50, 100, 200, 500]) m, generate_series(0, 4) e ORDER BY 1)
$$;

-- A product's counted keys beside its facet keys: at all, in stock, on sale, its fine price bucket.
CREATE FUNCTION search_count_keys(in_stock boolean, on_sale boolean, price_minor bigint) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY['*', 'p' || width_bucket(price_minor, search_price_edges())]
    || CASE WHEN in_stock THEN ARRAY['s'] ELSE '{}'::text[] END || CASE WHEN on_sale THEN ARRAY['d'] ELSE '{}'::text[] END
$$;

CREATE OR REPLACE FUNCTION product_search_refresh_set(site_ids text[], product_ids text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  site text;
  -- the counts' stripe this session adds to (see search_facet_counts)
  session_stripe smallint := pg_backend_pid() % 16;
BEGIN
  IF site_ids IS NULL THEN
    RETURN;
  END IF;
  FOR site IN SELECT DISTINCT s FROM unnest(site_ids) s LOOP
  WITH keys AS (
    SELECT DISTINCT k.site_id, k.product_id FROM unnest(site_ids, product_ids) AS k(site_id, product_id) WHERE k.site_id = site
  ), before AS (
    -- the rows as they were (a data-modifying statement's CTEs all see the statement's snapshot)
    SELECT ps.site_id, ps.product_id, ps.terms, ps.name_folded, ps.visible, ps.in_stock, ps.on_sale, ps.price_minor, ps.facet_keys
    FROM product_search ps JOIN keys ON ps.site_id = site AND ps.product_id = keys.product_id
    WHERE ps.site_id = site
  ), fresh AS (
    SELECT p.site_id, p.product_id, p.visible, p.name, t.name_folded,
      -- the name as written, then each other word once (short, so the trigram comparison stays cheap)
      concat_ws(' ', t.name_folded, (
        SELECT string_agg(DISTINCT w, ' ' ORDER BY w)
        FROM unnest(string_to_array(concat_ws(' ', t.options_folded, t.collections_folded, t.brand_folded, t.ribbon_folded), ' ')) w
        WHERE w <> '' AND NOT w = ANY(string_to_array(t.name_folded, ' ')))) AS terms,
      coalesce(codes.list, '{}') AS codes,
      setweight(to_tsvector(t.cfg, t.name_folded), 'A')
        || setweight(to_tsvector(t.cfg, concat_ws(' ', t.options_folded, t.brand_folded)), 'B')
        || setweight(to_tsvector(t.cfg, concat_ws(' ', t.collections_folded, t.ribbon_folded)), 'C')
        || setweight(to_tsvector(t.cfg, search_fold(regexp_replace(coalesce(p.doc->>'description', ''), '<[^>]*>', ' ', 'g'))), 'D') AS document,
      p.in_stock, p.discounted_minor AS price_minor, p.discounted_minor < p.price_minor AS on_sale, nullif(p.doc->>'brand', '') AS brand,
      coalesce(col.ids, '{}') AS collection_ids, coalesce(opt.pairs, '{}') AS options, p.created_at,
      search_facet_keys(coalesce(col.ids, '{}'), coalesce(opt.pairs, '{}'), nullif(p.doc->>'brand', '')) AS facet_keys
    FROM keys
    JOIN products p ON p.site_id = site AND p.product_id = keys.product_id
    CROSS JOIN LATERAL (
      SELECT array_agg(c.collection_id ORDER BY c.collection_id) AS ids, string_agg(c.name, ' ' ORDER BY c.collection_id) AS names
      FROM collection_products cp JOIN product_collections c ON c.site_id = cp.site_id AND c.collection_id = cp.collection_id
      WHERE cp.site_id = site AND c.site_id = site AND cp.product_id = p.product_id AND cp.collection_id <> '00000000-000000-000000-000000000001'
    ) col
    CROSS JOIN LATERAL (
      SELECT array_agg(DISTINCT (o->>'name') || chr(31) || (ch->>'value')) AS pairs,
        string_agg((o->>'name') || ' ' || (ch->>'value'), ' ') AS text
      FROM jsonb_array_elements(p.doc->'options') o, jsonb_array_elements(o->'choices') ch
    ) opt
    CROSS JOIN LATERAL (
      SELECT array_agg(DISTINCT lower(s)) AS list
      FROM (SELECT p.sku AS s UNION ALL SELECT v->>'sku' FROM jsonb_array_elements(p.doc->'variants') v) skus
      WHERE s IS NOT NULL AND s <> ''
    ) codes
    CROSS JOIN LATERAL (
      SELECT search_config(p.site_id) AS cfg, search_fold(p.name) AS name_folded, search_fold(opt.text) AS options_folded,
        search_fold(col.names) AS collections_folded, search_fold(p.doc->>'brand') AS brand_folded, search_fold(p.doc->>'ribbon') AS ribbon_folded
    ) t
  ), written AS (
    INSERT INTO product_search AS ps (site_id, product_id, visible, name, name_folded, terms, codes, document,
      in_stock, price_minor, on_sale, brand, collection_ids, options, created_at, facet_keys)
    SELECT * FROM fresh
    ON CONFLICT (site_id, product_id) DO UPDATE SET visible = EXCLUDED.visible, name = EXCLUDED.name,
      name_folded = EXCLUDED.name_folded, terms = EXCLUDED.terms, codes = EXCLUDED.codes, document = EXCLUDED.document,
      in_stock = EXCLUDED.in_stock, price_minor = EXCLUDED.price_minor, on_sale = EXCLUDED.on_sale, brand = EXCLUDED.brand,
      collection_ids = EXCLUDED.collection_ids, options = EXCLUDED.options, created_at = EXCLUDED.created_at,
      facet_keys = EXCLUDED.facet_keys
    -- the same row again: no new row version, no index entries, no WAL
    WHERE (ps.visible, ps.name, ps.name_folded, ps.terms, ps.codes, ps.document, ps.in_stock, ps.price_minor, ps.on_sale,
        ps.brand, ps.collection_ids, ps.options, ps.created_at)
      IS DISTINCT FROM (EXCLUDED.visible, EXCLUDED.name, EXCLUDED.name_folded, EXCLUDED.terms, EXCLUDED.codes, EXCLUDED.document,
        EXCLUDED.in_stock, EXCLUDED.price_minor, EXCLUDED.on_sale, EXCLUDED.brand, EXCLUDED.collection_ids, EXCLUDED.options,
        EXCLUDED.created_at)
    RETURNING ps.site_id, ps.product_id, ps.terms, ps.visible, ps.in_stock, ps.on_sale, ps.price_minor, ps.name_folded,
      ps.created_at, ps.facet_keys
  ), changed AS (
    SELECT w.*, b.product_id IS NULL AS added, w.terms IS DISTINCT FROM b.terms AS new_words,
      (w.name_folded, w.visible, w.in_stock) IS DISTINCT FROM (b.name_folded, b.visible, b.in_stock) AS new_suggestions,
      -- what the counts hold changed (a rename changes none of it)
      b.product_id IS NULL OR (w.visible, w.in_stock, w.on_sale, width_bucket(w.price_minor, search_price_edges()), w.facet_keys)
        IS DISTINCT FROM (b.visible, b.in_stock, b.on_sale, width_bucket(b.price_minor, search_price_edges()), b.facet_keys) AS new_counts
    FROM written w LEFT JOIN before b ON b.site_id = w.site_id AND b.product_id = w.product_id
  ), words AS (
    INSERT INTO search_words (site_id, word)
    SELECT DISTINCT c.site_id, w FROM changed c, regexp_split_to_table(c.terms, ' ') w WHERE c.new_words AND length(w) > 2
    ON CONFLICT DO NOTHING
  ), facets AS (
    INSERT INTO product_facets AS pf (site_id, product_id, visible, in_stock, on_sale, price_minor, name_folded, created_at, keys)
    SELECT c.site_id, c.product_id, c.visible, c.in_stock, c.on_sale, c.price_minor, c.name_folded, c.created_at, c.facet_keys FROM changed c
    ON CONFLICT (site_id, product_id) DO UPDATE SET visible = EXCLUDED.visible, in_stock = EXCLUDED.in_stock, on_sale = EXCLUDED.on_sale,
      price_minor = EXCLUDED.price_minor, name_folded = EXCLUDED.name_folded, created_at = EXCLUDED.created_at, keys = EXCLUDED.keys
    WHERE (pf.visible, pf.in_stock, pf.on_sale, pf.price_minor, pf.name_folded, pf.created_at, pf.keys)
      IS DISTINCT FROM (EXCLUDED.visible, EXCLUDED.in_stock, EXCLUDED.on_sale, EXCLUDED.price_minor, EXCLUDED.name_folded, EXCLUDED.created_at, EXCLUDED.keys)
  ), old_suggestions AS (
    -- the rows as they were, of products whose name, visibility or stock changed or that are gone
    -- (joins, not EXISTS under an OR, as 0990 had: a subplan per row, quadratic in a bulk rename)
    DELETE FROM search_suggestions s
    USING keys LEFT JOIN changed c ON c.product_id = keys.product_id
      LEFT JOIN products p ON p.site_id = site AND p.product_id = keys.product_id
    WHERE s.site_id = site AND s.product_id = keys.product_id
      AND (coalesce(c.new_suggestions AND NOT c.added, false) OR p.product_id IS NULL)
  ), new_suggestions AS (
    INSERT INTO search_suggestions (site_id, term, product_id, visible, in_stock, name_folded)
    SELECT c.site_id, array_to_string(n.words[i:], ' '), c.product_id, c.visible, c.in_stock, c.name_folded
    FROM changed c CROSS JOIN LATERAL (SELECT string_to_array(c.name_folded, ' ') AS words) n
      CROSS JOIN LATERAL generate_series(1, cardinality(n.words)) i
    WHERE c.new_suggestions AND c.name_folded <> ''
  ), gone_facets AS (
    DELETE FROM product_facets pf USING keys
    WHERE pf.site_id = site AND pf.product_id = keys.product_id
      AND NOT EXISTS (SELECT 1 FROM products p WHERE p.site_id = site AND p.product_id = keys.product_id)
  ), counted AS (
    -- what each product whose counted values changed, or that is gone, took from the counts (its
    -- row as it was) and gives them (its new row), summed by key; keys whose sums are nought are
    -- not touched. In key order, so two savers on one stripe lock its rows in the same order.
    INSERT INTO search_facet_counts AS sc (site_id, stripe, key, visible, total)
    SELECT site, session_stripe, d.key, sum(d.visible), sum(d.total) FROM (
      -- joins, not EXISTS under an OR (a subplan per row: quadratic in a bulk update)
      SELECT k AS key, CASE WHEN b.visible THEN -1 ELSE 0 END AS visible, -1 AS total
      FROM before b LEFT JOIN changed c ON c.product_id = b.product_id
        LEFT JOIN products p ON p.site_id = site AND p.product_id = b.product_id
        CROSS JOIN LATERAL unnest(b.facet_keys || search_count_keys(b.in_stock, b.on_sale, b.price_minor)) k
      WHERE coalesce(c.new_counts, false) OR p.product_id IS NULL
      UNION ALL
      SELECT k, CASE WHEN c.visible THEN 1 ELSE 0 END, 1
      FROM changed c CROSS JOIN LATERAL unnest(c.facet_keys || search_count_keys(c.in_stock, c.on_sale, c.price_minor)) k
      WHERE c.new_counts
    ) d
    GROUP BY d.key HAVING sum(d.visible) <> 0 OR sum(d.total) <> 0
    ORDER BY d.key
    ON CONFLICT (site_id, stripe, key) DO UPDATE SET visible = sc.visible + EXCLUDED.visible, total = sc.total + EXCLUDED.total
  )
  DELETE FROM product_search ps USING keys
  WHERE ps.site_id = site AND ps.product_id = keys.product_id
    AND NOT EXISTS (SELECT 1 FROM products p WHERE p.site_id = site AND p.product_id = keys.product_id);
  END LOOP;
END
$$;


-- Products indexed before this migration.
INSERT INTO search_facet_counts (site_id, stripe, key, visible, total)
SELECT pf.site_id, 0, k, count(*) FILTER (WHERE pf.visible), count(*)
FROM product_facets pf CROSS JOIN LATERAL unnest(pf.keys || search_count_keys(pf.in_stock, pf.on_sale, pf.price_minor)) k
GROUP BY pf.site_id, k;
