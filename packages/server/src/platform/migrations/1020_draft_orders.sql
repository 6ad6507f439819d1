-- Draft orders (issue 31): an order the merchant builds in the back office (a phone order, a
-- wholesale order). Its lines, buyer, discounts and shipping live in a checkout of the same id
-- (channel BACKOFFICE_MERCHANT), priced by the same kernel as every checkout; this row says it is
-- a draft, who made it, and the order it became. DRAFT → COMMITTED once, under this row's lock.
CREATE TABLE draft_orders (
  site_id          text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  draft_order_id   text NOT NULL,
  status           text NOT NULL CHECK (status IN ('DRAFT', 'COMMITTED')),
  order_id         text,
  created_by_kind  text NOT NULL,
  created_by_id    text NOT NULL,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  PRIMARY KEY (site_id, draft_order_id),
  CHECK ((status = 'COMMITTED') = (order_id IS NOT NULL))
);
CREATE INDEX draft_orders_by_date ON draft_orders (site_id, created_at DESC, draft_order_id DESC);
