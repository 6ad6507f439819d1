-- Back-in-stock notification requests (@wix/ecom backInStockNotifications): a shopper's e-mail for
-- a sold-out product variant; the mail goes out once, in the transaction that restocks it.
CREATE TABLE back_in_stock_requests (
  site_id        text NOT NULL,
  request_id     text NOT NULL,
  product_id     text NOT NULL,
  -- NULL: any variant of the product (a product without options).
  variant_id     text,
  catalog_options jsonb,
  email          text NOT NULL,
  contact_id     text,
  status         text NOT NULL CHECK (status IN ('RECEIVED', 'NOTIFICATION_SENT')),
  auto_notified  boolean,
  item_name      text NOT NULL,
  item_price     text,
  item_image     text,
  item_url       text,
  created_at     timestamptz NOT NULL,
  notified_at    timestamptz,
  PRIMARY KEY (site_id, request_id)
);
-- One waiting request per e-mail and variant: asking twice does not mail twice.
CREATE UNIQUE INDEX back_in_stock_one_waiting ON back_in_stock_requests (site_id, product_id, COALESCE(variant_id, ''), lower(email)) WHERE status = 'RECEIVED';
CREATE INDEX back_in_stock_by_product ON back_in_stock_requests (site_id, product_id, status);
