-- Suggestions as one types (services/catalog/search-query.ts, suggestionTermsStatement) at 100,000
-- products: search_suggestions_terms kept the entries in term order, so two letters typed ("me")
-- were a range of some 10,000 entries sorted by stock and name for the first 8. This index keeps
-- them by their first two letters, then in stock first, then by name: the scan starts where the
-- typed letters' entries start, walks them in the suggestions' own order, keeps those that start
-- with all of the text (term is in the index) and stops at the eighth product. It replaces the
-- term index (one index less for a rename to update). site_id first, as in every index of a site
-- table (Citus).
CREATE INDEX search_suggestions_heads ON search_suggestions (site_id, (left(term, 2)), in_stock DESC, name_folded, product_id)
  INCLUDE (term, visible);
DROP INDEX search_suggestions_terms;
