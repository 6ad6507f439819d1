-- Gift cards (issue 30): a card's balance changes only together with a ledger row, in the
-- transaction of the order, refund or back-office adjustment that moved it; the balance can never
-- go below zero (CHECK), and every spender locks the card's row first.
CREATE TABLE gift_cards (
  site_id          text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  gift_card_id     text NOT NULL,
  -- The normalised code (upper case, no separators); unguessable, with a check character.
  code             text NOT NULL,
  currency         text NOT NULL,
  initial_minor    bigint NOT NULL CHECK (initial_minor > 0),
  balance_minor    bigint NOT NULL CHECK (balance_minor >= 0),
  -- ACTIVE or DISABLED; expiry is a date, not a state.
  status           text NOT NULL CHECK (status IN ('ACTIVE', 'DISABLED')),
  expires_at       timestamptz,
  -- ORDER: bought in the shop; MANUAL: issued in the back office.
  source           text NOT NULL CHECK (source IN ('ORDER', 'MANUAL')),
  order_id         text,
  line_item_id     text,
  line_index       integer,
  buyer_kind       text,
  buyer_id         text,
  buyer_email      text,
  recipient_name   text,
  recipient_email  text,
  message          text,
  deliver_at       timestamptz,
  note             text,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  PRIMARY KEY (site_id, gift_card_id),
  UNIQUE (site_id, code)
);
-- A paid order issues each card once, however often its paid hook runs.
CREATE UNIQUE INDEX gift_cards_once_per_line ON gift_cards (site_id, order_id, line_item_id, line_index) WHERE order_id IS NOT NULL;
CREATE INDEX gift_cards_by_buyer ON gift_cards (site_id, buyer_kind, buyer_id, created_at DESC);
CREATE INDEX gift_cards_by_created ON gift_cards (site_id, created_at DESC, gift_card_id);

-- Every movement of a balance: ISSUE (+), REDEEM (− while a checkout holds it, then with its order),
-- RELEASE (+, a hold given back), REFUND (+), ADJUST (±, with a reason).
CREATE TABLE gift_card_ledger (
  site_id       text NOT NULL,
  entry_id      text NOT NULL,
  -- Orders the entries of one card written at the same instant.
  seq           bigserial NOT NULL,
  gift_card_id  text NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('ISSUE', 'REDEEM', 'RELEASE', 'REFUND', 'ADJUST')),
  amount_minor  bigint NOT NULL,
  balance_after bigint NOT NULL CHECK (balance_after >= 0),
  checkout_id   text,
  order_id      text,
  reason        text,
  actor         text,
  created_at    timestamptz NOT NULL,
  PRIMARY KEY (site_id, entry_id),
  FOREIGN KEY (site_id, gift_card_id) REFERENCES gift_cards (site_id, gift_card_id) ON DELETE CASCADE
);
CREATE INDEX gift_card_ledger_by_card ON gift_card_ledger (site_id, gift_card_id, created_at);
CREATE INDEX gift_card_ledger_by_checkout ON gift_card_ledger (site_id, checkout_id) WHERE checkout_id IS NOT NULL;

-- The cards a shopper entered on a checkout, in the order entered (the first pays first).
CREATE TABLE checkout_gift_cards (
  site_id      text NOT NULL,
  checkout_id  text NOT NULL,
  gift_card_id text NOT NULL,
  position     integer NOT NULL,
  PRIMARY KEY (site_id, checkout_id, gift_card_id),
  FOREIGN KEY (site_id, gift_card_id) REFERENCES gift_cards (site_id, gift_card_id) ON DELETE CASCADE
);

-- What the merchant sells as gift cards: the products whose purchase issues a card, the custom
-- amount limits, and how long a card lasts (NULL: never expires).
CREATE TABLE gift_card_settings (
  site_id         text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  product_ids     text[] NOT NULL DEFAULT '{}',
  min_custom_minor bigint,
  max_custom_minor bigint,
  validity_months integer CHECK (validity_months IS NULL OR validity_months > 0),
  updated_at      timestamptz NOT NULL,
  PRIMARY KEY (site_id)
);
