-- The command palette's name search reads only this index: a prefix is a range of it, and the
-- "contains" fallback filters its entries without touching the products' documents.
CREATE INDEX products_names ON products (site_id, lower(name) text_pattern_ops) INCLUDE (product_id, name);
DROP INDEX IF EXISTS products_by_lower_name;
