-- Suggestions as one types (services/catalog/search-query.ts, suggestionTermsSql), session 12: the
-- two-letter index of migration 1090 walks the entries of the typed text's first two letters in the
-- suggestions' own order (in stock first, then by name) until eight match the whole text, so a rare
-- word behind a common start ("mezzo" behind "me") walks every "me" entry (171 buffers at 100,000
-- products). This index keeps the entries by their first four letters in the same order: from four
-- letters typed the walk is of those four letters' entries only (a handful for a rare prefix), and
-- a common four-letter start still stops at the eighth product. Two and three letters typed keep
-- the two-letter index. A rename writes one index entry more per word of its name. site_id first,
-- as in every index of a site table (Citus).
CREATE INDEX search_suggestions_heads4 ON search_suggestions (site_id, (left(term, 4)), in_stock DESC, name_folded, product_id)
  INCLUDE (term, visible);
