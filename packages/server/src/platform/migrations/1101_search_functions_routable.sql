-- Search functions a distributed database can run (Citus, issue 32); the same answers everywhere.
-- A SQL function's query with parameters cannot be planned inside a shard's query on Citus, a
-- PL/pgSQL one can (its site is a parameter Citus routes by).
CREATE OR REPLACE FUNCTION search_word_alternatives(site text, word text) RETURNS text LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
  RETURN (SELECT string_agg(a.t, ' | ') FROM (
    SELECT quote_literal($2) || ':*ABC' AS t
    UNION ALL (SELECT quote_literal(sw.word) || ':ABC' FROM search_words sw
      WHERE sw.site_id = $1 AND $2 <% sw.word AND sw.word <> $2
        AND similarity(sw.word, $2) >= current_setting('pg_trgm.similarity_threshold')::real
      ORDER BY similarity(sw.word, $2) DESC, sw.word LIMIT 5)) a);
END
$$;

-- A renamed collection's products, one site at a time with the site named: a join of the
-- statement's transition tables with a distributed table cannot be planned on Citus.
CREATE OR REPLACE FUNCTION product_search_on_collection_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  renamed record;
BEGIN
  FOR renamed IN
    SELECT n.site_id, array_agg(n.collection_id) AS collection_ids
      FROM new_rows n JOIN old_rows o ON o.site_id = n.site_id AND o.collection_id = n.collection_id
     WHERE o.name IS DISTINCT FROM n.name GROUP BY n.site_id
  LOOP
    PERFORM product_search_refresh_set(array_agg(cp.site_id), array_agg(cp.product_id))
      FROM collection_products cp WHERE cp.site_id = renamed.site_id AND cp.collection_id = ANY (renamed.collection_ids);
  END LOOP;
  RETURN NULL;
END
$$;
