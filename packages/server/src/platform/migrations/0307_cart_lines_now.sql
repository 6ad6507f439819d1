-- add-to-cart's lines when its statement waited on the cart row for another change: a subquery
-- of that statement reads under the snapshot taken before the wait, but a VOLATILE function's
-- query takes a new one (READ COMMITTED), which sees every change committed before the row lock
-- was granted. So the answer needs no second statement; cart/store.ts calls this only on that path.
CREATE OR REPLACE FUNCTION cart_lines_now(p_site text, p_cart text) RETURNS json
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_lines json;
BEGIN
  SELECT json_agg(json_build_object('line_item_id', l.line_item_id, 'catalog_reference', l.catalog_reference,
      'quantity', l.quantity, 'custom', l.custom) ORDER BY l.position)
    INTO v_lines
    FROM cart_line_items l WHERE l.site_id = p_site AND l.cart_id = p_cart;
  RETURN v_lines;
END
$fn$;
