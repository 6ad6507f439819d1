-- The order import's failures file (issue 31): each file import is kept with its counts, and every
-- row of an order it refused with the spec's reason (`code`), the reason in words (`error`) and the
-- row as it came (`data`), so the back office and the API can hand the refused rows back as a CSV
-- like the product import's. A row of a JSON file is one order of the array.
CREATE TABLE order_import_files (
  site_id           text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  import_id         text NOT NULL,
  format            text NOT NULL CHECK (format IN ('csv', 'json')),
  orders            integer NOT NULL,
  imported          integer NOT NULL,
  already_imported  integer NOT NULL,
  failed            integer NOT NULL,
  created_at        timestamptz NOT NULL,
  PRIMARY KEY (site_id, import_id)
);

CREATE TABLE order_import_failures (
  site_id            text NOT NULL,
  import_id          text NOT NULL,
  row_number         integer NOT NULL,
  external_order_id  text,
  code               text NOT NULL,
  error              text NOT NULL,
  data               jsonb NOT NULL,
  PRIMARY KEY (site_id, import_id, row_number),
  FOREIGN KEY (site_id, import_id) REFERENCES order_import_files (site_id, import_id) ON DELETE CASCADE
);
