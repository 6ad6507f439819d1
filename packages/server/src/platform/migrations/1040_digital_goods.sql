-- Digital goods (issue 30): files attached to a DIGITAL product (or one of its variants), the
-- product's link rules, and one download grant per paid order line and file. A grant's count is
-- raised only by a conditional UPDATE (downloads < max_downloads), so concurrent downloads never
-- pass the limit; the CHECK is the last guard.
CREATE TABLE digital_files (
  site_id       text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  file_id       text NOT NULL,
  product_id    text NOT NULL,
  -- NULL: every variant of the product gets the file.
  variant_id    text,
  file_name     text NOT NULL,
  content_type  text NOT NULL,
  size_bytes    bigint NOT NULL CHECK (size_bytes >= 0),
  storage_key   text NOT NULL,
  created_at    timestamptz NOT NULL,
  PRIMARY KEY (site_id, file_id)
);
CREATE INDEX digital_files_by_product ON digital_files (site_id, product_id, created_at);

CREATE TABLE digital_product_rules (
  site_id        text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  product_id     text NOT NULL,
  link_days      integer NOT NULL CHECK (link_days BETWEEN 1 AND 365),
  max_downloads  integer NOT NULL CHECK (max_downloads BETWEEN 1 AND 100),
  PRIMARY KEY (site_id, product_id)
);

CREATE TABLE digital_grants (
  site_id        text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  grant_id       text NOT NULL,
  order_id       text NOT NULL,
  order_number   bigint NOT NULL,
  line_item_id   text NOT NULL,
  file_id        text NOT NULL,
  buyer_kind     text NOT NULL,
  buyer_id       text NOT NULL,
  buyer_email    text,
  product_name   text NOT NULL,
  link_days      integer NOT NULL,
  max_downloads  integer NOT NULL,
  downloads      integer NOT NULL DEFAULT 0,
  last_download_at timestamptz,
  created_at     timestamptz NOT NULL,
  PRIMARY KEY (site_id, grant_id),
  CHECK (downloads BETWEEN 0 AND max_downloads)
);
-- A paid order grants each file once per line, however often its paid hook runs.
CREATE UNIQUE INDEX digital_grants_once ON digital_grants (site_id, order_id, line_item_id, file_id);
CREATE INDEX digital_grants_by_buyer ON digital_grants (site_id, buyer_kind, buyer_id, created_at DESC);
CREATE INDEX digital_grants_by_number ON digital_grants (site_id, order_number);
