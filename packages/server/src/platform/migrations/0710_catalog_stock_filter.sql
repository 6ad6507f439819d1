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
-- In or out of stock, newest change first (the list's default order) is a range of this index,
-- and so is each count. Other orders walk their own index and test the function on each row,
-- which stops early for the many in stock (2.6 ms for a page of 50,000) and stays under 45 ms for
-- the few out of stock. "Low stock" reads products_low_stock (0701).
CREATE INDEX products_by_stock ON products (site_id, bodega_in_stock(doc), updated_at DESC, product_id);
