-- Commerce: catalog, carts, coupons, checkouts and orders. Every key and index leads with site_id.
-- Money is bigint minor units of the site currency; wire shapes are built in each service's wire.ts.

-- Per-site counters (order numbers, product numeric ids). Incremented with one upsert, which
-- holds the row lock until the transaction ends, so numbers are sequential and gapless.
CREATE TABLE commerce_counters (
  site_id  text NOT NULL,
  name     text NOT NULL,
  value    bigint NOT NULL,
  PRIMARY KEY (site_id, name)
);

-- Stores v1 products. Queried and sorted fields are columns; the rest (options, variants with
-- their stock, media, discount) is one document, changed under the row lock.
CREATE TABLE products (
  site_id           text NOT NULL,
  product_id        text NOT NULL,
  numeric_id        bigint NOT NULL,
  slug              text NOT NULL,
  name              text NOT NULL,
  product_type      text NOT NULL CHECK (product_type IN ('physical', 'digital')),
  visible           boolean NOT NULL DEFAULT true,
  sku               text,
  price_minor       bigint NOT NULL CHECK (price_minor >= 0),
  discounted_minor  bigint NOT NULL CHECK (discounted_minor >= 0),
  doc               jsonb NOT NULL,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL,
  PRIMARY KEY (site_id, product_id)
);
CREATE UNIQUE INDEX products_by_slug ON products (site_id, slug);
CREATE INDEX products_by_name ON products (site_id, name, product_id);
CREATE INDEX products_by_price ON products (site_id, discounted_minor, product_id);
CREATE INDEX products_by_created ON products (site_id, created_at, product_id);

CREATE TABLE product_collections (
  site_id        text NOT NULL,
  collection_id  text NOT NULL,
  slug           text NOT NULL,
  name           text NOT NULL,
  description    text,
  visible        boolean NOT NULL DEFAULT true,
  media          jsonb,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL,
  PRIMARY KEY (site_id, collection_id)
);
CREATE UNIQUE INDEX product_collections_by_slug ON product_collections (site_id, slug);

CREATE TABLE collection_products (
  site_id        text NOT NULL,
  collection_id  text NOT NULL,
  product_id     text NOT NULL,
  added_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site_id, collection_id, product_id)
);
CREATE INDEX collection_products_by_product ON collection_products (site_id, product_id);

-- One current cart per buyer per site: the unique key is what add-to-cart upserts on.
CREATE TABLE carts (
  site_id                   text NOT NULL,
  cart_id                   text NOT NULL,
  buyer_kind                text NOT NULL CHECK (buyer_kind IN ('visitor', 'member', 'app')),
  buyer_id                  text NOT NULL,
  currency                  text NOT NULL,
  coupon_code               text,
  merchant_discounts        jsonb NOT NULL DEFAULT '[]'::jsonb,
  buyer_note                text,
  contact_info              jsonb,
  selected_shipping_option  jsonb,
  business_location_id      text,
  checkout_id               text,
  created_at                timestamptz NOT NULL,
  updated_at                timestamptz NOT NULL,
  PRIMARY KEY (site_id, cart_id)
);
CREATE UNIQUE INDEX carts_by_buyer ON carts (site_id, buyer_kind, buyer_id);

-- line_key names a catalog item and its chosen variant and text fields; adding the same key adds
-- to the line (ON CONFLICT). Custom line items have no key and never merge.
CREATE TABLE cart_line_items (
  site_id            text NOT NULL,
  cart_id            text NOT NULL,
  line_item_id       text NOT NULL,
  line_key           text,
  position           bigint GENERATED ALWAYS AS IDENTITY,
  catalog_reference  jsonb,
  quantity           integer NOT NULL CHECK (quantity BETWEEN 1 AND 100000),
  custom             jsonb,
  created_at         timestamptz NOT NULL,
  PRIMARY KEY (site_id, cart_id, line_item_id)
);
CREATE UNIQUE INDEX cart_line_items_by_key ON cart_line_items (site_id, cart_id, line_key);

CREATE TABLE coupons (
  site_id                 text NOT NULL,
  coupon_id               text NOT NULL,
  code                    text NOT NULL,
  code_key                text NOT NULL,
  name                    text NOT NULL,
  discount_type           text NOT NULL CHECK (discount_type IN ('PERCENT', 'AMOUNT')),
  percent                 text,
  amount_minor            bigint,
  minimum_subtotal_minor  bigint,
  valid_from              timestamptz,
  valid_until             timestamptz,
  usage_limit             integer,
  times_used              integer NOT NULL DEFAULT 0,
  product_ids             text[] NOT NULL DEFAULT '{}',
  active                  boolean NOT NULL DEFAULT true,
  created_at              timestamptz NOT NULL,
  PRIMARY KEY (site_id, coupon_id)
);
CREATE UNIQUE INDEX coupons_by_code ON coupons (site_id, code_key);

-- Lines are references (catalog item, variant, quantity) until the order snapshots them.
CREATE TABLE checkouts (
  site_id                   text NOT NULL,
  checkout_id               text NOT NULL,
  cart_id                   text,
  buyer_kind                text NOT NULL CHECK (buyer_kind IN ('visitor', 'member', 'app')),
  buyer_id                  text NOT NULL,
  channel_type              text NOT NULL,
  currency                  text NOT NULL,
  line_items                jsonb NOT NULL DEFAULT '[]'::jsonb,
  coupon_code               text,
  merchant_discounts        jsonb NOT NULL DEFAULT '[]'::jsonb,
  buyer_note                text,
  email                     text,
  billing_info              jsonb,
  shipping_destination      jsonb,
  selected_shipping_option  jsonb,
  delivery_time_slot        jsonb,
  completed                 boolean NOT NULL DEFAULT false,
  order_id                  text,
  created_at                timestamptz NOT NULL,
  updated_at                timestamptz NOT NULL,
  PRIMARY KEY (site_id, checkout_id)
);
CREATE INDEX checkouts_by_cart ON checkouts (site_id, cart_id);

-- An order is a snapshot (doc) plus the states and amounts that calls filter on and change.
CREATE TABLE orders (
  site_id             text NOT NULL,
  order_id            text NOT NULL,
  number              bigint NOT NULL,
  checkout_id         text,
  buyer_kind          text NOT NULL CHECK (buyer_kind IN ('visitor', 'member', 'app')),
  buyer_id            text NOT NULL,
  email               text,
  status              text NOT NULL,
  payment_status      text NOT NULL,
  fulfillment_status  text NOT NULL,
  currency            text NOT NULL,
  total_minor         bigint NOT NULL,
  paid_minor          bigint NOT NULL DEFAULT 0,
  refunded_minor      bigint NOT NULL DEFAULT 0,
  stock_state         text NOT NULL DEFAULT 'NONE' CHECK (stock_state IN ('NONE', 'DECREMENTED', 'RESTOCKED')),
  archived            boolean NOT NULL DEFAULT false,
  doc                 jsonb NOT NULL,
  purchased_at        timestamptz,
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL,
  PRIMARY KEY (site_id, order_id)
);
CREATE UNIQUE INDEX orders_by_number ON orders (site_id, number);
-- The same checkout always gives the same order, even if two calls get past the checkout lock.
CREATE UNIQUE INDEX orders_by_checkout ON orders (site_id, checkout_id);
CREATE INDEX orders_by_created ON orders (site_id, created_at, order_id);
CREATE INDEX orders_by_buyer ON orders (site_id, buyer_kind, buyer_id, created_at);
