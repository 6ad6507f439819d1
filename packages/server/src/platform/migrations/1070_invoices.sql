-- Invoices (issue 31): one numbered invoice per order, made on demand or when the order is paid.
-- `number` comes from the site's `invoice_number` row of commerce_counters, taken in the invoice's
-- own transaction, so a rolled-back invoice gives its number back: numbers have no gaps. `doc` is
-- the invoice as issued (seller, buyer, lines, tax lines, totals in minor units as strings): it does
-- not change when the order does later. The status follows the order (paid, partly paid, canceled)
-- and is read from it. An app's own invoice (addInvoiceToOrder) has an app id and no number or doc.
CREATE TABLE order_invoices (
  site_id           text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  invoice_id        text NOT NULL,
  order_id          text NOT NULL,
  number            bigint,
  invoice_number    text,
  app_id            text,
  currency          text NOT NULL,
  total_minor       bigint NOT NULL,
  doc               jsonb,
  issued_at         timestamptz NOT NULL,
  sent_at           timestamptz,
  sent_to           text,
  -- The mailed link: a random key, kept as its SHA-256, and when it stops working.
  link_hash         text,
  link_expires_at   timestamptz,
  PRIMARY KEY (site_id, invoice_id),
  CHECK ((number IS NULL) = (app_id IS NOT NULL))
);
CREATE UNIQUE INDEX order_invoices_number ON order_invoices (site_id, number) WHERE number IS NOT NULL;
-- One numbered invoice per order.
CREATE UNIQUE INDEX order_invoices_one_per_order ON order_invoices (site_id, order_id) WHERE number IS NOT NULL;
CREATE INDEX order_invoices_by_order ON order_invoices (site_id, order_id);
CREATE INDEX order_invoices_by_date ON order_invoices (site_id, issued_at DESC, invoice_id DESC);

-- The site's invoice settings: the number's prefix, whether a paid order gets one by itself, and
-- the seller's details printed on it (the store's name, address and tax id).
CREATE TABLE invoice_settings (
  site_id           text PRIMARY KEY REFERENCES sites (site_id) ON DELETE CASCADE,
  prefix            text NOT NULL DEFAULT '',
  auto_on_paid      boolean NOT NULL DEFAULT false,
  business_name     text,
  business_address  text,
  tax_id            text,
  updated_at        timestamptz NOT NULL
);
