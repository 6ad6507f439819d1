-- The back office's stock filter (POST /bodega/v1/products/query). bodega_in_stock(doc) is a
-- product's stock.inStock as Stores v1 shows it (productStock in services/catalog/products.ts):
-- its own quantity or flag, or, with managed variants, whether any variant is in stock.
CREATE OR REPLACE FUNCTION bodega_in_stock(doc jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN NOT coalesce((doc->>'manageVariants')::boolean, false) THEN
      CASE WHEN coalesce((doc->>'trackInventory')::boolean, false) THEN coalesce((doc->>'quantity')::integer, 0) > 0
           ELSE coalesce((doc->>'inStock')::boolean, true) END
    WHEN coalesce((doc->>'trackInventory')::boolean, false) THEN
      EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'variants') v WHERE coalesce((v->>'quantity')::integer, 0) > 0)
    ELSE EXISTS (SELECT 1 FROM jsonb_array_elements(doc->'variants') v WHERE coalesce((v->>'inStock')::boolean, false))
  END
$$;
-- Kept beside the document, so the planner has its statistics (the out-of-stock few are found
-- by the index, the in-stock many by walking the sort's own index) and a count is an index-only
-- scan. The back-office list's default order (newest change first, product id breaking ties) is a
-- backward range of products_by_stock. "Low stock" reads products_low_stock (0701).
ALTER TABLE products ADD COLUMN in_stock boolean GENERATED ALWAYS AS (bodega_in_stock(doc)) STORED;
CREATE INDEX products_by_stock ON products (site_id, in_stock, updated_at, product_id);
