-- The dashboard counts a refund on the day it was made (as merchants and Shopify do), not on its
-- order's day: each refund gets a row, indexed by site and time, beside the order's document.
CREATE TABLE order_refunds (
  site_id      text NOT NULL,
  order_id     text NOT NULL,
  refund_id    text NOT NULL,
  amount_minor bigint NOT NULL,
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (site_id, order_id, refund_id),
  FOREIGN KEY (site_id, order_id) REFERENCES orders (site_id, order_id) ON DELETE CASCADE
);
-- Covers the per-day sums.
CREATE INDEX order_refunds_by_time ON order_refunds (site_id, created_at) INCLUDE (amount_minor, order_id);
-- The refunds of orders that do not count as sales are left out with them: the few such orders,
-- read from this small index, instead of every order's status.
CREATE INDEX orders_not_counted ON orders (site_id, order_id) WHERE status IN ('CANCELED', 'REJECTED');

-- The refunds made so far, from the orders' documents (amounts and dates as the orders store encodes them).
INSERT INTO order_refunds (site_id, order_id, refund_id, amount_minor, created_at)
SELECT o.site_id, o.order_id, r->>'id', (r->'amount'->>'$bigint')::bigint, (r->'createdDate'->>'$date')::timestamptz
  FROM orders o, jsonb_array_elements(o.doc->'refunds') r
 WHERE jsonb_typeof(o.doc->'refunds') = 'array';

-- The orders' own sums no longer read the refunded amount: the sales index goes back to the total alone.
DROP INDEX orders_sales;
CREATE INDEX orders_sales ON orders (site_id, created_at) INCLUDE (total_minor) WHERE status NOT IN ('CANCELED', 'REJECTED');
