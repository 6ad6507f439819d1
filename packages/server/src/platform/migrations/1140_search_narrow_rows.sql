-- Catalog search at 100,000 products, session 11 (services/catalog/search-query.ts; the README's
-- "Catalog search"): the row a text search's bitmap scan visits, narrower.
--   * A common word matches 6–7 % of a catalog and the facets need every match, so the scan visits
--     nearly one page of product_search per match: the fewer bytes a row, the fewer pages. The row
--     was ~1 KB; what the match, the order and the facets read is the folded name, the document,
--     the flags, the price, the creation time and the facet keys. The rest goes:
--       - the SKUs of the product and its variants (~260 bytes) move to product_search_skus, a row
--         per product that has any; the exact-SKU arm looks them up there first (a few ids) and the
--         search row is found by its primary key;
--       - terms (the words for the word list) are no longer stored: the refresh adds a product's words
--         to search_words when its document changed (the words are in it), from what it computed;
--       - the name as written, the option pairs, the collection ids and the brand were only written
--         (facet_keys holds the last three, the folded name the first).
--     The ALTER rewrites the table (a changed column type), so the rows of before are narrow too
--     and the dead versions migration 1091's UPDATE left are gone; fillfactor 90 leaves room for a
--     stock or price change to stay on its page (no indexed column changes: HOT).
--   * The GIN indexes of the search tables keep short pending lists (gin_pending_list_limit 128 kB
--     instead of 4 MB): every search scans an index's whole pending list, and after a burst of saves
--     the bench found ~390 pages pending in each of product_search's three GIN indexes (1,313 of the
--     7,263 buffers of a one-word search), and the save that found the list full merged 4 MB at once.
-- site_id first in every key and index (Citus).

CREATE TABLE product_search_skus (
  site_id     text NOT NULL,
  product_id  text NOT NULL,
  -- folded SKUs of the product and its variants: an exact one ranks first
  codes       text[] NOT NULL,
  PRIMARY KEY (site_id, product_id)
);
CREATE INDEX product_search_skus_codes ON product_search_skus USING gin (site_id, codes) WITH (gin_pending_list_limit = 128);

INSERT INTO product_search_skus (site_id, product_id, codes)
SELECT site_id, product_id, codes FROM product_search WHERE cardinality(codes) > 0;

DROP INDEX product_search_codes;

-- (facet_keys' type is unchanged; the expression makes PostgreSQL rewrite every row without the
-- dropped columns.)
ALTER TABLE product_search DROP COLUMN name, DROP COLUMN terms, DROP COLUMN codes, DROP COLUMN options,
  DROP COLUMN collection_ids, DROP COLUMN brand,
  ALTER COLUMN facet_keys TYPE text[] USING facet_keys || '{}'::text[];
ALTER TABLE product_search SET (fillfactor = 90);

ALTER INDEX product_search_document SET (gin_pending_list_limit = 128);
ALTER INDEX product_search_names SET (gin_pending_list_limit = 128);
ALTER INDEX product_facets_keys SET (gin_pending_list_limit = 128);
ALTER INDEX search_words_trigrams SET (gin_pending_list_limit = 128);

CREATE OR REPLACE FUNCTION product_search_refresh_set(site_ids text[], product_ids text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  site text;
  -- the counts' stripe this session adds to (see search_facet_counts, migration 1091)
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
    SELECT ps.site_id, ps.product_id, ps.document, ps.name_folded, ps.visible, ps.in_stock, ps.on_sale, ps.price_minor, ps.facet_keys
    FROM product_search ps JOIN keys ON ps.site_id = site AND ps.product_id = keys.product_id
    WHERE ps.site_id = site
  ), fresh AS MATERIALIZED (
    SELECT p.site_id, p.product_id, p.visible, t.name_folded,
      -- the name's words, then each other word once: what the word list gets
      concat_ws(' ', t.name_folded, (
        SELECT string_agg(DISTINCT w, ' ' ORDER BY w)
        FROM unnest(string_to_array(concat_ws(' ', t.options_folded, t.collections_folded, t.brand_folded, t.ribbon_folded), ' ')) w
        WHERE w <> '' AND NOT w = ANY(string_to_array(t.name_folded, ' ')))) AS terms,
      coalesce(codes.list, '{}') AS codes,
      setweight(to_tsvector(t.cfg, t.name_folded), 'A')
        || setweight(to_tsvector(t.cfg, concat_ws(' ', t.options_folded, t.brand_folded)), 'B')
        || setweight(to_tsvector(t.cfg, concat_ws(' ', t.collections_folded, t.ribbon_folded)), 'C')
        || setweight(to_tsvector(t.cfg, search_fold(regexp_replace(coalesce(p.doc->>'description', ''), '<[^>]*>', ' ', 'g'))), 'D') AS document,
      p.in_stock, p.discounted_minor AS price_minor, p.discounted_minor < p.price_minor AS on_sale, p.created_at,
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
      SELECT array_agg(DISTINCT lower(s) ORDER BY lower(s)) AS list
      FROM (SELECT p.sku AS s UNION ALL SELECT v->>'sku' FROM jsonb_array_elements(p.doc->'variants') v) skus
      WHERE s IS NOT NULL AND s <> ''
    ) codes
    CROSS JOIN LATERAL (
      SELECT search_config(p.site_id) AS cfg, search_fold(p.name) AS name_folded, search_fold(opt.text) AS options_folded,
        search_fold(col.names) AS collections_folded, search_fold(p.doc->>'brand') AS brand_folded, search_fold(p.doc->>'ribbon') AS ribbon_folded
    ) t
  ), written AS (
    INSERT INTO product_search AS ps (site_id, product_id, visible, name_folded, document,
      in_stock, price_minor, on_sale, created_at, facet_keys)
    SELECT f.site_id, f.product_id, f.visible, f.name_folded, f.document, f.in_stock, f.price_minor, f.on_sale, f.created_at, f.facet_keys
    FROM fresh f
    ON CONFLICT (site_id, product_id) DO UPDATE SET visible = EXCLUDED.visible,
      name_folded = EXCLUDED.name_folded, document = EXCLUDED.document,
      in_stock = EXCLUDED.in_stock, price_minor = EXCLUDED.price_minor, on_sale = EXCLUDED.on_sale,
      created_at = EXCLUDED.created_at, facet_keys = EXCLUDED.facet_keys
    -- the same row again: no new row version, no index entries, no WAL
    WHERE (ps.visible, ps.name_folded, ps.document, ps.in_stock, ps.price_minor, ps.on_sale, ps.created_at, ps.facet_keys)
      IS DISTINCT FROM (EXCLUDED.visible, EXCLUDED.name_folded, EXCLUDED.document, EXCLUDED.in_stock, EXCLUDED.price_minor,
        EXCLUDED.on_sale, EXCLUDED.created_at, EXCLUDED.facet_keys)
    RETURNING ps.site_id, ps.product_id, ps.document, ps.visible, ps.in_stock, ps.on_sale, ps.price_minor, ps.name_folded,
      ps.created_at, ps.facet_keys
  ), changed AS (
    SELECT w.*, f.terms, b.product_id IS NULL AS added,
      -- every word of the list is in the document (stemmed), so the same document, the same words
      w.document IS DISTINCT FROM b.document AS new_words,
      (w.name_folded, w.visible, w.in_stock) IS DISTINCT FROM (b.name_folded, b.visible, b.in_stock) AS new_suggestions,
      -- what the counts hold changed (a rename changes none of it)
      b.product_id IS NULL OR (w.visible, w.in_stock, w.on_sale, width_bucket(w.price_minor, search_price_edges()), w.facet_keys)
        IS DISTINCT FROM (b.visible, b.in_stock, b.on_sale, width_bucket(b.price_minor, search_price_edges()), b.facet_keys) AS new_counts
    FROM written w JOIN fresh f ON f.product_id = w.product_id LEFT JOIN before b ON b.site_id = w.site_id AND b.product_id = w.product_id
  ), words AS (
    INSERT INTO search_words (site_id, word)
    SELECT DISTINCT c.site_id, w FROM changed c, regexp_split_to_table(c.terms, ' ') w WHERE c.new_words AND length(w) > 2
    ON CONFLICT DO NOTHING
  ), skus AS (
    -- only SKUs that changed: an upsert that changes nothing still locks (writes) the row it finds
    INSERT INTO product_search_skus AS sk (site_id, product_id, codes)
    SELECT f.site_id, f.product_id, f.codes FROM fresh f WHERE cardinality(f.codes) > 0
      AND NOT EXISTS (SELECT 1 FROM product_search_skus o WHERE o.site_id = site AND o.product_id = f.product_id AND o.codes = f.codes)
    ON CONFLICT (site_id, product_id) DO UPDATE SET codes = EXCLUDED.codes
  ), gone_skus AS (
    -- products that are gone or have no SKU any more (disjoint from the rows the insert writes)
    DELETE FROM product_search_skus sk USING keys LEFT JOIN fresh f ON f.product_id = keys.product_id
    WHERE sk.site_id = site AND sk.product_id = keys.product_id AND coalesce(cardinality(f.codes), 0) = 0
  ), facets AS (
    INSERT INTO product_facets AS pf (site_id, product_id, visible, in_stock, on_sale, price_minor, name_folded, created_at, keys)
    SELECT c.site_id, c.product_id, c.visible, c.in_stock, c.on_sale, c.price_minor, c.name_folded, c.created_at, c.facet_keys FROM changed c
    ON CONFLICT (site_id, product_id) DO UPDATE SET visible = EXCLUDED.visible, in_stock = EXCLUDED.in_stock, on_sale = EXCLUDED.on_sale,
      price_minor = EXCLUDED.price_minor, name_folded = EXCLUDED.name_folded, created_at = EXCLUDED.created_at, keys = EXCLUDED.keys
    WHERE (pf.visible, pf.in_stock, pf.on_sale, pf.price_minor, pf.name_folded, pf.created_at, pf.keys)
      IS DISTINCT FROM (EXCLUDED.visible, EXCLUDED.in_stock, EXCLUDED.on_sale, EXCLUDED.price_minor, EXCLUDED.name_folded, EXCLUDED.created_at, EXCLUDED.keys)
  ), old_suggestions AS (
    -- the rows as they were, of products whose name, visibility or stock changed or that are gone
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
    -- row as it was) and gives them (its new row), summed by key (migration 1091)
    INSERT INTO search_facet_counts AS sc (site_id, stripe, key, visible, total)
    SELECT site, session_stripe, d.key, sum(d.visible), sum(d.total) FROM (
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
