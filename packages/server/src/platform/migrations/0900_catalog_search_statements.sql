-- Catalog search, cheaper to keep (services/catalog/search*.ts; the index itself is migration 0880):
--   * the triggers fire once per statement (transition tables) instead of once per row, and one
--     set-based statement refreshes every product the statement touched: a bulk insert of 5,000
--     products is one refresh, not 5,000;
--   * an update that changes nothing the index holds (stock counts, media, SEO …) refreshes nothing,
--     and a refresh that computes the row already stored writes nothing;
--   * product_search_versions holds one number per site, raised in the same transaction as every
--     change of the site's index or collections (as it commits): equal numbers, equal index, so
--     what was computed from the index (results and facet counts) can be kept by the number
--     (search.ts's cache);
--   * search_words, the site's word list (each word of names, options, collections, brand and
--     ribbon), with a trigram index: "did you mean" and a mistyped suggestion look words up there
--     instead of splitting every product's text. Words are only added (ON CONFLICT DO NOTHING takes no lock on an existing word,
--     so concurrent saves never wait on each other here); a word no product has any more stays, and
--     the lookup checks a word against the index before offering it.

CREATE TABLE product_search_versions (
  site_id  text PRIMARY KEY,
  version  bigint NOT NULL
);

-- Suggestions as one types walk this in order (in stock first, then by name) and stop at the
-- eighth match when matches are many; when they are few, the document index finds them.
CREATE INDEX product_search_suggest_order ON product_search (site_id, in_stock DESC, name_folded, product_id);

CREATE TABLE search_words (
  site_id  text NOT NULL,
  word     text NOT NULL,
  PRIMARY KEY (site_id, word)
);
CREATE INDEX search_words_trigrams ON search_words USING gin (site_id, word gin_trgm_ops);

-- Refreshes the search rows of the given (site, product) pairs from products; returns nothing.
-- PL/pgSQL (not SQL) so each session plans the statement once, not at every call.
CREATE FUNCTION product_search_refresh_set(site_ids text[], product_ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF site_ids IS NULL THEN
    RETURN;
  END IF;
  WITH keys AS (
    SELECT DISTINCT k.site_id, k.product_id FROM unnest(site_ids, product_ids) AS k(site_id, product_id)
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
    JOIN products p ON p.site_id = keys.site_id AND p.product_id = keys.product_id
    CROSS JOIN LATERAL (
      SELECT array_agg(c.collection_id ORDER BY c.collection_id) AS ids, string_agg(c.name, ' ' ORDER BY c.collection_id) AS names
      FROM collection_products cp JOIN product_collections c ON c.site_id = cp.site_id AND c.collection_id = cp.collection_id
      WHERE cp.site_id = p.site_id AND cp.product_id = p.product_id AND cp.collection_id <> '00000000-000000-000000-000000000001'
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
    RETURNING ps.site_id, ps.terms
  ), words AS (
    INSERT INTO search_words (site_id, word)
    SELECT DISTINCT written.site_id, w FROM written, regexp_split_to_table(written.terms, ' ') w WHERE length(w) > 2
    ON CONFLICT DO NOTHING
  )
  DELETE FROM product_search ps USING keys
  WHERE ps.site_id = keys.site_id AND ps.product_id = keys.product_id
    AND NOT EXISTS (SELECT 1 FROM products p WHERE p.site_id = keys.site_id AND p.product_id = keys.product_id);
END
$$;

-- The site's version is raised once per transaction that changed its index rows or its
-- collections, when it commits (a deferred trigger): the version row is locked only for the commit
-- itself, so a transaction saving several products one statement at a time never holds it while
-- it waits for a product row another saver holds.
CREATE FUNCTION product_search_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  site text := CASE WHEN TG_OP = 'DELETE' THEN OLD.site_id ELSE NEW.site_id END;
  done text := coalesce(current_setting('bodega.search_versions_raised', true), '');
BEGIN
  IF position(chr(30) || site || chr(30) IN done) > 0 THEN
    RETURN NULL;
  END IF;
  INSERT INTO product_search_versions AS v (site_id, version) VALUES (site, 1)
  ON CONFLICT (site_id) DO UPDATE SET version = v.version + 1;
  PERFORM set_config('bodega.search_versions_raised', done || chr(30) || site || chr(30), true);
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER product_search_version AFTER INSERT OR UPDATE OR DELETE ON product_search
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION product_search_bump();
CREATE CONSTRAINT TRIGGER product_search_collections_version AFTER INSERT OR UPDATE OR DELETE ON product_collections
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION product_search_bump();

CREATE FUNCTION product_search_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM product_search_refresh_set(array_agg(n.site_id), array_agg(n.product_id)) FROM new_rows n;
  RETURN NULL;
END
$$;

CREATE FUNCTION product_search_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM product_search_refresh_set(array_agg(o.site_id), array_agg(o.product_id)) FROM old_rows o;
  RETURN NULL;
END
$$;

-- Only the products whose indexed fields changed; a stock count or a picture changes nothing here.
CREATE FUNCTION product_search_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM product_search_refresh_set(array_agg(n.site_id), array_agg(n.product_id))
  FROM new_rows n JOIN old_rows o ON o.site_id = n.site_id AND o.product_id = n.product_id
  WHERE (n.name, n.visible, n.sku, n.in_stock, n.price_minor, n.discounted_minor, n.created_at,
      n.doc->'options', jsonb_path_query_array(n.doc, '$.variants[*].sku'), n.doc->>'brand', n.doc->>'ribbon', n.doc->>'description')
    IS DISTINCT FROM (o.name, o.visible, o.sku, o.in_stock, o.price_minor, o.discounted_minor, o.created_at,
      o.doc->'options', jsonb_path_query_array(o.doc, '$.variants[*].sku'), o.doc->>'brand', o.doc->>'ribbon', o.doc->>'description');
  RETURN NULL;
END
$$;

DROP TRIGGER product_search_products ON products;
DROP TRIGGER product_search_memberships_added ON collection_products;
DROP TRIGGER product_search_memberships_removed ON collection_products;
DROP TRIGGER product_search_collections ON product_collections;
DROP FUNCTION product_search_on_change();
DROP FUNCTION product_search_on_collection();

CREATE TRIGGER product_search_products_inserted AFTER INSERT ON products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_on_insert();
CREATE TRIGGER product_search_products_updated AFTER UPDATE ON products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_on_update();
CREATE TRIGGER product_search_products_deleted AFTER DELETE ON products
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_on_delete();

-- Memberships of the all-products collection change nothing the index holds.
CREATE FUNCTION product_search_on_membership_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM product_search_refresh_set(array_agg(n.site_id), array_agg(n.product_id))
  FROM new_rows n WHERE n.collection_id <> '00000000-000000-000000-000000000001';
  RETURN NULL;
END
$$;
CREATE FUNCTION product_search_on_membership_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM product_search_refresh_set(array_agg(o.site_id), array_agg(o.product_id))
  FROM old_rows o WHERE o.collection_id <> '00000000-000000-000000-000000000001';
  RETURN NULL;
END
$$;
CREATE TRIGGER product_search_memberships_inserted AFTER INSERT ON collection_products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_on_membership_added();
CREATE TRIGGER product_search_memberships_deleted AFTER DELETE ON collection_products
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_on_membership_removed();

-- A collection renamed: its products' rows follow.
CREATE FUNCTION product_search_on_collection_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM product_search_refresh_set(array_agg(cp.site_id), array_agg(cp.product_id))
  FROM new_rows n JOIN old_rows o ON o.site_id = n.site_id AND o.collection_id = n.collection_id
  JOIN collection_products cp ON cp.site_id = n.site_id AND cp.collection_id = n.collection_id
  WHERE o.name IS DISTINCT FROM n.name;
  RETURN NULL;
END
$$;
CREATE TRIGGER product_search_collections_updated AFTER UPDATE ON product_collections
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_on_collection_updated();

DROP FUNCTION product_search_refresh(text, text);

-- The word list of products indexed before this migration.
INSERT INTO search_words (site_id, word)
SELECT DISTINCT ps.site_id, w FROM product_search ps, regexp_split_to_table(ps.terms, ' ') w WHERE length(w) > 2
ON CONFLICT DO NOTHING;
