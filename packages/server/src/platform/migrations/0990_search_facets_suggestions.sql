-- Catalog search at 100,000 products (services/catalog/search*.ts):
--   * product_facets: one narrow row per product (~200 bytes instead of product_search's 2.5 KB) with
--     what filters, facets and a browse page's order need. Collections, option values and the brand are
--     one array of keys, each led by its kind ('c' collection id, 'o' option name chr(31) value,
--     'b' brand), so every facet of a page is counted in one pass over one unnest;
--   * search_suggestions: a product's name from each of its word starts ("merino crew sweater",
--     "crew sweater", "sweater"), with a byte-order (C collation) index: what one types is a prefix
--     range of that index, at any catalog size;
--   * the refresh writes the word list and the suggestions only for products whose words or name
--     changed (a price or stock change writes neither);
--   * typos are looked up in the word list (search_word_alternatives), so product_search.terms keeps
--     feeding the word list but its trigram index, the costliest index of a save, goes; so does
--     product_search_suggest_order (suggestions read search_suggestions; the rare fallback sorts the
--     few products the document index finds);
--   * product_facets leaves room on each page (fillfactor 80): a rename or a stock change updates
--     no indexed column of it, so the new row version stays on its page with no index entries (HOT).
-- Both tables are written by product_search_refresh_set, in the transaction of the product write.

DROP INDEX product_search_terms;
DROP INDEX product_search_suggest_order;

CREATE TABLE product_facets (
  site_id      text NOT NULL,
  product_id   text NOT NULL,
  visible      boolean NOT NULL,
  in_stock     boolean NOT NULL,
  on_sale      boolean NOT NULL,
  price_minor  bigint NOT NULL,
  name_folded  text NOT NULL,
  created_at   timestamptz NOT NULL,
  keys         text[] NOT NULL,
  PRIMARY KEY (site_id, product_id)
) WITH (fillfactor = 80);
-- A filter on collections, options or brands, and on prices: bitmap scans of the few rows a
-- browse with two filters needs.
CREATE INDEX product_facets_keys ON product_facets USING gin (site_id, keys);
CREATE INDEX product_facets_prices ON product_facets (site_id, price_minor);

CREATE TABLE search_suggestions (
  site_id      text NOT NULL,
  term         text COLLATE "C" NOT NULL,
  product_id   text NOT NULL,
  visible      boolean NOT NULL,
  in_stock     boolean NOT NULL,
  name_folded  text NOT NULL
);
-- Covering: a suggestion reads the index only.
CREATE INDEX search_suggestions_terms ON search_suggestions (site_id, term) INCLUDE (visible, in_stock, name_folded, product_id);
CREATE INDEX search_suggestions_products ON search_suggestions (site_id, product_id);

-- A product's facet keys from its search row's values.
CREATE FUNCTION search_facet_keys(collection_ids text[], options text[], brand text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY(SELECT 'c' || x FROM unnest(collection_ids) x) || ARRAY(SELECT 'o' || x FROM unnest(options) x)
    || CASE WHEN brand IS NULL THEN '{}'::text[] ELSE ARRAY['b' || brand] END
$$;

-- One statement per site, the site named in every table's condition: Citus routes each to the one
-- worker holding the site (a trigger's rows may be several sites', e.g. a bulk import on one shard).
CREATE OR REPLACE FUNCTION product_search_refresh_set(site_ids text[], product_ids text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  site text;
BEGIN
  IF site_ids IS NULL THEN
    RETURN;
  END IF;
  FOR site IN SELECT DISTINCT s FROM unnest(site_ids) s LOOP
  WITH keys AS (
    SELECT DISTINCT k.site_id, k.product_id FROM unnest(site_ids, product_ids) AS k(site_id, product_id) WHERE k.site_id = site
  ), before AS (
    -- the rows as they were (a data-modifying statement's CTEs all see the statement's snapshot)
    SELECT ps.site_id, ps.product_id, ps.terms, ps.name_folded, ps.visible, ps.in_stock
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
      coalesce(col.ids, '{}') AS collection_ids, coalesce(opt.pairs, '{}') AS options, p.created_at
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
      in_stock, price_minor, on_sale, brand, collection_ids, options, created_at)
    SELECT * FROM fresh
    ON CONFLICT (site_id, product_id) DO UPDATE SET visible = EXCLUDED.visible, name = EXCLUDED.name,
      name_folded = EXCLUDED.name_folded, terms = EXCLUDED.terms, codes = EXCLUDED.codes, document = EXCLUDED.document,
      in_stock = EXCLUDED.in_stock, price_minor = EXCLUDED.price_minor, on_sale = EXCLUDED.on_sale, brand = EXCLUDED.brand,
      collection_ids = EXCLUDED.collection_ids, options = EXCLUDED.options, created_at = EXCLUDED.created_at
    -- the same row again: no new row version, no index entries, no WAL
    WHERE (ps.visible, ps.name, ps.name_folded, ps.terms, ps.codes, ps.document, ps.in_stock, ps.price_minor, ps.on_sale,
        ps.brand, ps.collection_ids, ps.options, ps.created_at)
      IS DISTINCT FROM (EXCLUDED.visible, EXCLUDED.name, EXCLUDED.name_folded, EXCLUDED.terms, EXCLUDED.codes, EXCLUDED.document,
        EXCLUDED.in_stock, EXCLUDED.price_minor, EXCLUDED.on_sale, EXCLUDED.brand, EXCLUDED.collection_ids, EXCLUDED.options,
        EXCLUDED.created_at)
    RETURNING ps.site_id, ps.product_id, ps.terms, ps.visible, ps.in_stock, ps.on_sale, ps.price_minor, ps.name_folded,
      ps.created_at, search_facet_keys(ps.collection_ids, ps.options, ps.brand) AS facet_keys
  ), changed AS (
    SELECT w.*, b.product_id IS NULL AS added, w.terms IS DISTINCT FROM b.terms AS new_words,
      (w.name_folded, w.visible, w.in_stock) IS DISTINCT FROM (b.name_folded, b.visible, b.in_stock) AS new_suggestions
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
    DELETE FROM search_suggestions s USING keys
    WHERE s.site_id = site AND s.product_id = keys.product_id
      AND (EXISTS (SELECT 1 FROM changed c WHERE c.product_id = keys.product_id AND c.new_suggestions AND NOT c.added)
        OR NOT EXISTS (SELECT 1 FROM products p WHERE p.site_id = site AND p.product_id = keys.product_id))
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
  )
  DELETE FROM product_search ps USING keys
  WHERE ps.site_id = site AND ps.product_id = keys.product_id
    AND NOT EXISTS (SELECT 1 FROM products p WHERE p.site_id = site AND p.product_id = keys.product_id);
  END LOOP;
END
$$;

-- Products indexed before this migration.
INSERT INTO product_facets (site_id, product_id, visible, in_stock, on_sale, price_minor, name_folded, created_at, keys)
SELECT site_id, product_id, visible, in_stock, on_sale, price_minor, name_folded, created_at, search_facet_keys(collection_ids, options, brand)
FROM product_search;
INSERT INTO search_suggestions (site_id, term, product_id, visible, in_stock, name_folded)
SELECT ps.site_id, array_to_string(n.words[i:], ' '), ps.product_id, ps.visible, ps.in_stock, ps.name_folded
FROM product_search ps CROSS JOIN LATERAL (SELECT string_to_array(ps.name_folded, ' ') AS words) n
  CROSS JOIN LATERAL generate_series(1, cardinality(n.words)) i
WHERE ps.name_folded <> '';

-- A typo's search: a query word as typed (as a prefix) or one of the five nearest words of the
-- site's word list (trigram similarity at least pg_trgm.similarity_threshold, which the caller's
-- transaction sets), as tsquery text on the name, options, brand, collections and ribbon (weights
-- A–C). The word list's trigram index finds them (through <%, as PGlite's build answers no rows
-- for %); no product's text is compared.
CREATE FUNCTION search_word_alternatives(site text, word text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT string_agg(a.t, ' | ') FROM (
    SELECT quote_literal($2) || ':*ABC' AS t
    UNION ALL (SELECT quote_literal(sw.word) || ':ABC' FROM search_words sw
      WHERE sw.site_id = $1 AND $2 <% sw.word AND sw.word <> $2
        AND similarity(sw.word, $2) >= current_setting('pg_trgm.similarity_threshold')::real
      ORDER BY similarity(sw.word, $2) DESC, sw.word LIMIT 5)) a
$$;
