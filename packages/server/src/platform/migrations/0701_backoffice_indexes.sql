-- Indexes the back office's lists, search and dashboard read through (bench/admin.ts measures them).

-- A tracked product's stock: its quantity, or its lowest variant's when variants are managed.
CREATE OR REPLACE FUNCTION bodega_stock_level(doc jsonb) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN (doc->>'manageVariants')::boolean
    THEN (SELECT min((v->>'quantity')::integer) FROM jsonb_array_elements(doc->'variants') v)
    ELSE (doc->>'quantity')::integer END
$$;
CREATE INDEX products_low_stock ON products (site_id, bodega_stock_level(doc)) WHERE doc->>'trackInventory' = 'true';
-- Name search: prefix ranges on the lower-cased name.
CREATE INDEX products_by_lower_name ON products (site_id, lower(name) text_pattern_ops);

-- Order search by the start of the buyer's e-mail, and the dashboard's open counts.
CREATE INDEX orders_by_lower_email ON orders (site_id, lower(email) text_pattern_ops);
CREATE INDEX orders_unpaid ON orders (site_id, created_at)
  WHERE status NOT IN ('CANCELED', 'REJECTED') AND payment_status IN ('NOT_PAID', 'PENDING', 'PARTIALLY_PAID', 'PENDING_MERCHANT');
CREATE INDEX orders_unfulfilled ON orders (site_id, created_at)
  WHERE status NOT IN ('CANCELED', 'REJECTED') AND fulfillment_status IN ('NOT_FULFILLED', 'PARTIALLY_FULFILLED');
-- The orders list filtered by payment or fulfilment status, newest first.
CREATE INDEX orders_by_payment_status ON orders (site_id, payment_status, created_at);
CREATE INDEX orders_by_fulfillment_status ON orders (site_id, fulfillment_status, created_at);

-- Member search by the start of the e-mail or nickname.
CREATE INDEX members_by_email_prefix ON members (site_id, lower(login_email) text_pattern_ops);
CREATE INDEX members_by_nickname_prefix ON members (site_id, lower(profile->>'nickname') text_pattern_ops);
