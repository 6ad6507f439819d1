-- Catalog search (services/catalog/search*.ts): one row per product in product_search, kept by
-- triggers on the catalog's tables, so it changes in the same transaction as every product write
-- (create, update, delete, stock, collection membership, a collection's name) whatever path made it.
-- Text is folded (lower case, accents off) once here; queries fold theirs with the same function.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;
-- GIN indexes that lead with site_id, as every index here does.
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- unaccent() is STABLE (it reads a dictionary), so no index expression uses this: the folded text
-- is stored in columns.
CREATE FUNCTION search_fold(value text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT btrim(regexp_replace(lower(unaccent(coalesce(value, ''))), '[^[:alnum:]]+', ' ', 'g'))
$$;

-- The text search configuration of a site's language (sites.settings.language, an ISO 639-1 code;
-- English when unset, simple when PostgreSQL has no stemmer for it).
CREATE FUNCTION search_config(site text) RETURNS regconfig LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT (CASE lower(coalesce((SELECT s.settings->>'language' FROM sites s WHERE s.site_id = site), 'en'))
    WHEN 'en' THEN 'english' WHEN 'fr' THEN 'french' WHEN 'de' THEN 'german' WHEN 'es' THEN 'spanish'
    WHEN 'it' THEN 'italian' WHEN 'pt' THEN 'portuguese' WHEN 'nl' THEN 'dutch' WHEN 'sv' THEN 'swedish'
    WHEN 'da' THEN 'danish' WHEN 'fi' THEN 'finnish' WHEN 'no' THEN 'norwegian' WHEN 'nb' THEN 'norwegian'
    WHEN 'ru' THEN 'russian' WHEN 'tr' THEN 'turkish' WHEN 'hu' THEN 'hungarian' WHEN 'ro' THEN 'romanian'
    ELSE 'simple' END)::regconfig
$$;

CREATE TABLE product_search (
  site_id         text NOT NULL,
  product_id      text NOT NULL,
  visible         boolean NOT NULL,
  name            text NOT NULL,
  -- folded name: the phrase and word tests and the name's trigrams
  name_folded     text NOT NULL,
  -- folded name, then the other words of options, collections, brand and ribbon: trigrams for typos
  terms           text NOT NULL,
  -- folded SKUs of the product and its variants: an exact one ranks first
  codes           text[] NOT NULL,
  document        tsvector NOT NULL,
  in_stock        boolean NOT NULL,
  price_minor     bigint NOT NULL,
  on_sale         boolean NOT NULL,
  brand           text,
  collection_ids  text[] NOT NULL,
  -- 'Option name' || chr(31) || 'value', one per choice
  options         text[] NOT NULL,
  created_at      timestamptz NOT NULL,
  PRIMARY KEY (site_id, product_id)
);
CREATE INDEX product_search_document ON product_search USING gin (site_id, document);
CREATE INDEX product_search_names ON product_search USING gin (site_id, name_folded gin_trgm_ops);
CREATE INDEX product_search_terms ON product_search USING gin (site_id, terms gin_trgm_ops);
CREATE INDEX product_search_codes ON product_search USING gin (site_id, codes);

CREATE FUNCTION product_search_refresh(site text, product text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  cfg regconfig := search_config(site);
BEGIN
  INSERT INTO product_search AS ps (site_id, product_id, visible, name, name_folded, terms, codes, document,
    in_stock, price_minor, on_sale, brand, collection_ids, options, created_at)
  SELECT p.site_id, p.product_id, p.visible, p.name, search_fold(p.name),
    -- the name as written, then each other word once (short, so the trigram comparison stays cheap)
    concat_ws(' ', search_fold(p.name), (
      SELECT string_agg(DISTINCT w, ' ' ORDER BY w)
      FROM unnest(string_to_array(concat_ws(' ', search_fold(opt.text), search_fold(col.names), search_fold(p.doc->>'brand'), search_fold(p.doc->>'ribbon')), ' ')) w
      WHERE w <> '' AND NOT w = ANY(string_to_array(search_fold(p.name), ' ')))),
    coalesce(codes.list, '{}'),
    setweight(to_tsvector(cfg, search_fold(p.name)), 'A')
      || setweight(to_tsvector(cfg, concat_ws(' ', search_fold(opt.text), search_fold(p.doc->>'brand'))), 'B')
      || setweight(to_tsvector(cfg, concat_ws(' ', search_fold(col.names), search_fold(p.doc->>'ribbon'))), 'C')
      || setweight(to_tsvector(cfg, search_fold(regexp_replace(coalesce(p.doc->>'description', ''), '<[^>]*>', ' ', 'g'))), 'D'),
    p.in_stock, p.discounted_minor, p.discounted_minor < p.price_minor, nullif(p.doc->>'brand', ''),
    coalesce(col.ids, '{}'), coalesce(opt.pairs, '{}'), p.created_at
  FROM products p
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
  WHERE p.site_id = site AND p.product_id = product
  ON CONFLICT (site_id, product_id) DO UPDATE SET visible = EXCLUDED.visible, name = EXCLUDED.name,
    name_folded = EXCLUDED.name_folded, terms = EXCLUDED.terms, codes = EXCLUDED.codes, document = EXCLUDED.document,
    in_stock = EXCLUDED.in_stock, price_minor = EXCLUDED.price_minor, on_sale = EXCLUDED.on_sale, brand = EXCLUDED.brand,
    collection_ids = EXCLUDED.collection_ids, options = EXCLUDED.options, created_at = EXCLUDED.created_at;
  IF NOT FOUND THEN
    DELETE FROM product_search WHERE site_id = site AND product_id = product;
  END IF;
END
$$;

-- A product's row or one of its memberships changed: its search row follows (a deleted product's
-- row goes, as the refresh finds no product).
CREATE FUNCTION product_search_on_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM product_search_refresh(OLD.site_id, OLD.product_id);
  ELSE
    PERFORM product_search_refresh(NEW.site_id, NEW.product_id);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER product_search_products AFTER INSERT OR UPDATE OR DELETE ON products
  FOR EACH ROW EXECUTE FUNCTION product_search_on_change();
-- Every product is in the all-products collection, which is not searched: its rows change nothing.
CREATE TRIGGER product_search_memberships_added AFTER INSERT ON collection_products
  FOR EACH ROW WHEN (NEW.collection_id <> '00000000-000000-000000-000000000001') EXECUTE FUNCTION product_search_on_change();
CREATE TRIGGER product_search_memberships_removed AFTER DELETE ON collection_products
  FOR EACH ROW WHEN (OLD.collection_id <> '00000000-000000-000000-000000000001') EXECUTE FUNCTION product_search_on_change();

CREATE FUNCTION product_search_on_collection() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM product_search_refresh(cp.site_id, cp.product_id)
  FROM collection_products cp WHERE cp.site_id = NEW.site_id AND cp.collection_id = NEW.collection_id;
  RETURN NULL;
END
$$;
CREATE TRIGGER product_search_collections AFTER UPDATE OF name ON product_collections
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION product_search_on_collection();

-- Products saved before this migration.
SELECT product_search_refresh(site_id, product_id) FROM products;
