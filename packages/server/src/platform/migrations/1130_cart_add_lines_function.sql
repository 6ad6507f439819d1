-- Add-to-cart as one function call (issue 32): the same single round trip everywhere, and on Citus
-- ONE command routed to the worker that holds the site (platform/citus.ts distributes this function
-- by p_site, colocated with the site tables, so the coordinator delegates the whole call). The
-- statement it replaces (a modifying CTE with INSERT … SELECT) ran on Citus as a dozen commands and
-- intermediate results between coordinator and worker.
--
-- Each statement below is a plain one-row write or read of the one site, which Citus routes to the
-- local shard without planning across nodes. Behaviour is the statement's: the cart row is upserted
-- first (ON CONFLICT takes its row lock, so concurrent adds to one cart queue there); a line with the
-- same key gains the quantity under its row lock; a line past the maximum fails the CHECK on quantity
-- (23514), which undoes the whole call; the event is written only when a subscription wants it (the
-- guard is platform/events.ts outboxWanted for a cart.* type, which no order mail is). The lines are
-- read last, by a statement of their own: in READ COMMITTED it takes a new snapshot after the cart
-- row's lock was granted, so it sees every add that committed before and this call's own lines
-- (what cart_lines_now did for the statement that waited).
--
-- A line's position (the order lines were added) is the cart's last position + 1, read under the
-- cart row's lock, not the identity's next value: on Citus an identity value comes from the node
-- that plans the insert (the coordinator's range is below every worker's), so lines written by the
-- worker (this delegated call) and by the coordinator (cart/store.ts moveLines) would sort by node,
-- not by time. moveLines numbers its lines the same way.
CREATE OR REPLACE FUNCTION cart_add_lines(p_site text, p_cart text, p_buyer_kind text, p_buyer_id text, p_currency text,
  p_location text, p_at timestamptz, p_lines jsonb, p_event text, p_payload jsonb) RETURNS json
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_row record;
  v_cart_id text;
  v_inserted boolean;
  v_line record;
  v_written record;
  v_added json[] := '{}';
  v_added_ids jsonb := '[]';
  v_lines json;
  v_position bigint;
BEGIN
  INSERT INTO carts AS c (site_id, cart_id, buyer_kind, buyer_id, currency, business_location_id, created_at, updated_at)
  VALUES (p_site, p_cart, p_buyer_kind, p_buyer_id, p_currency, p_location, p_at, p_at)
  ON CONFLICT (site_id, buyer_kind, buyer_id) DO UPDATE
    SET updated_at = EXCLUDED.updated_at, business_location_id = COALESCE(EXCLUDED.business_location_id, c.business_location_id),
      revision = c.revision + 1
  RETURNING c.*, (c.xmax = 0) AS inserted INTO v_row;
  v_cart_id := v_row.cart_id;
  v_inserted := v_row.inserted;
  SELECT COALESCE(max(l.position), 0) INTO v_position FROM cart_line_items l WHERE l.site_id = p_site AND l.cart_id = v_cart_id;

  FOR v_line IN
    SELECT n.id, n.key, n.ref, n.quantity, n.custom
      FROM ROWS FROM (jsonb_to_recordset(p_lines) AS (id text, key text, ref jsonb, quantity int, custom jsonb)) WITH ORDINALITY AS n(id, key, ref, quantity, custom, ord)
     ORDER BY n.ord
  LOOP
    v_position := v_position + 1;
    INSERT INTO cart_line_items AS l (site_id, cart_id, line_item_id, line_key, position, catalog_reference, quantity, custom, created_at)
    OVERRIDING SYSTEM VALUE
    VALUES (p_site, v_cart_id, v_line.id, v_line.key, v_position, v_line.ref, v_line.quantity, v_line.custom, p_at)
    ON CONFLICT (site_id, cart_id, line_key) DO UPDATE SET quantity = l.quantity + EXCLUDED.quantity
    RETURNING l.line_item_id, l.catalog_reference, l.quantity, l.custom INTO v_written;
    v_added := v_added || json_build_object('line_item_id', v_written.line_item_id, 'catalog_reference', v_written.catalog_reference,
      'quantity', v_written.quantity, 'custom', v_written.custom);
    v_added_ids := v_added_ids || jsonb_build_array(v_written.line_item_id);
  END LOOP;

  IF EXISTS (SELECT 1 FROM webhook_subscriptions ws
      WHERE ws.site_id = p_site AND (ws.event_types && ARRAY['*', CASE WHEN v_inserted THEN 'cart.created' ELSE 'cart.updated' END,
          CASE WHEN v_inserted THEN 'bodega.cart.created' ELSE 'bodega.cart.updated' END]
        OR EXISTS (SELECT 1 FROM unnest(ws.event_types) AS wt(name) WHERE wt.name LIKE 'wix.%'))) THEN
    INSERT INTO outbox_events (site_id, event_id, type, entity_type, entity_id, payload)
    VALUES (p_site, p_event, CASE WHEN v_inserted THEN 'cart.created' ELSE 'cart.updated' END, 'cart', v_cart_id,
      p_payload || jsonb_build_object('cartId', v_cart_id, 'addedLineItemIds', CASE WHEN jsonb_array_length(v_added_ids) = 0 THEN NULL ELSE v_added_ids END));
  END IF;

  SELECT json_agg(json_build_object('line_item_id', l.line_item_id, 'catalog_reference', l.catalog_reference,
      'quantity', l.quantity, 'custom', l.custom) ORDER BY l.position)
    INTO v_lines
    FROM cart_line_items l WHERE l.site_id = p_site AND l.cart_id = v_cart_id;

  RETURN json_build_object('cart', json_build_object('cart_id', v_row.cart_id, 'buyer_kind', v_row.buyer_kind, 'buyer_id', v_row.buyer_id,
      'currency', v_row.currency, 'coupon_code', v_row.coupon_code, 'merchant_discounts', v_row.merchant_discounts, 'buyer_note', v_row.buyer_note,
      'contact_info', v_row.contact_info, 'selected_shipping_option', v_row.selected_shipping_option,
      'business_location_id', v_row.business_location_id, 'checkout_id', v_row.checkout_id, 'created_at', v_row.created_at, 'updated_at', v_row.updated_at),
    'inserted', v_inserted, 'existing', v_lines,
    'added', CASE WHEN cardinality(v_added) = 0 THEN NULL ELSE array_to_json(v_added) END);
END
$fn$;
