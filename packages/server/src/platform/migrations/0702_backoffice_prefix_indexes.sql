-- Prefix searches of the admin lists ($startsWith compiles to starts_with(), which a btree with
-- text_pattern_ops serves as a range) and the sales the dashboard sums, read from the index alone.
CREATE INDEX products_by_slug_prefix ON products (site_id, slug text_pattern_ops);
CREATE INDEX products_by_name_prefix ON products (site_id, name text_pattern_ops);
CREATE INDEX orders_by_email_prefix ON orders (site_id, email text_pattern_ops);
CREATE INDEX orders_sales ON orders (site_id, created_at) INCLUDE (total_minor) WHERE status NOT IN ('CANCELED', 'REJECTED');
