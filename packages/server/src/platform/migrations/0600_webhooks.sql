-- Delivery of the outbox: webhook subscriptions, one delivery row per (event, subscription), every
-- attempt, and each site's RS256 key pair for Wix-format bodies.

-- A sequence number taken while the writer holds the entity's lock, so per entity it follows commit
-- order. `delivered_at` now means "fanned out to subscriptions and mail" (pruned N days later).
ALTER TABLE outbox_events ADD COLUMN seq bigserial;
CREATE INDEX outbox_events_undispatched ON outbox_events (seq) WHERE delivered_at IS NULL;
CREATE INDEX outbox_events_dispatched ON outbox_events (delivered_at) WHERE delivered_at IS NOT NULL;

CREATE TABLE webhook_keys (
  site_id      text PRIMARY KEY REFERENCES sites (site_id) ON DELETE CASCADE,
  public_key   text NOT NULL,
  private_key  text NOT NULL,
  created_at   timestamptz NOT NULL
);

CREATE TABLE webhook_subscriptions (
  site_id          text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  subscription_id  text NOT NULL,
  url              text NOT NULL,
  event_types      text[] NOT NULL,
  format           text NOT NULL CHECK (format IN ('WIX', 'STANDARD')),
  secret           text NOT NULL,
  status           text NOT NULL CHECK (status IN ('ACTIVE', 'PAUSED')),
  paused_reason    text,
  failures_in_row  integer NOT NULL DEFAULT 0,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  PRIMARY KEY (site_id, subscription_id)
);

CREATE TABLE webhook_deliveries (
  site_id          text NOT NULL,
  delivery_id      text NOT NULL,
  subscription_id  text NOT NULL,
  event_id         text NOT NULL,
  event_type       text NOT NULL,
  entity_id        text NOT NULL,
  seq              bigint NOT NULL,
  -- The event as sent (entity rendered at fan-out); signed anew at each attempt.
  event            jsonb NOT NULL,
  status           text NOT NULL CHECK (status IN ('PENDING', 'SENDING', 'DELIVERED', 'FAILED')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL,
  last_error       text,
  replay_of        text,
  created_at       timestamptz NOT NULL,
  finished_at      timestamptz,
  PRIMARY KEY (site_id, delivery_id),
  FOREIGN KEY (site_id, subscription_id) REFERENCES webhook_subscriptions (site_id, subscription_id) ON DELETE CASCADE
);
-- The claim walks the queue in event order and stops at its LIMIT.
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries (seq) WHERE status IN ('PENDING', 'SENDING');
CREATE INDEX webhook_deliveries_entity ON webhook_deliveries (site_id, subscription_id, entity_id, seq) WHERE status IN ('PENDING', 'SENDING');
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (site_id, subscription_id, created_at DESC);
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE finished_at IS NOT NULL;

CREATE TABLE webhook_attempts (
  site_id           text NOT NULL,
  delivery_id       text NOT NULL,
  attempt           integer NOT NULL,
  started_at        timestamptz NOT NULL,
  duration_ms       integer NOT NULL,
  status_code       integer,
  error             text,
  response_excerpt  text,
  PRIMARY KEY (site_id, delivery_id, attempt),
  FOREIGN KEY (site_id, delivery_id) REFERENCES webhook_deliveries (site_id, delivery_id) ON DELETE CASCADE
);
