-- Payments through a provider. Each attempt to pay a checkout is written (and committed) before the
-- provider is called, under an idempotency key made of our own ids, so a crash between the
-- provider's answer and our commit is found again by the sweep and the provider's webhooks.
CREATE TABLE payment_attempts (
  site_id            text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  attempt_id         text NOT NULL,
  checkout_id        text NOT NULL,
  attempt_number     integer NOT NULL,
  provider           text NOT NULL,
  idempotency_key    text NOT NULL,
  token              text NOT NULL,
  amount_minor       bigint NOT NULL,
  currency           text NOT NULL,
  delay_capture      boolean NOT NULL,
  -- STARTED (sent, no answer kept), REQUIRES_ACTION, APPROVED, AUTHORIZED, PENDING, DECLINED, FAILED.
  status             text NOT NULL,
  provider_intent_id text,
  order_id           text,
  failure            text,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  PRIMARY KEY (site_id, attempt_id),
  UNIQUE (site_id, checkout_id, attempt_number),
  UNIQUE (site_id, idempotency_key)
);
CREATE INDEX payment_attempts_by_intent ON payment_attempts (provider, provider_intent_id) WHERE provider_intent_id IS NOT NULL;
-- The sweep's work list: attempts the provider may still decide, or that have no order yet.
CREATE INDEX payment_attempts_open ON payment_attempts (updated_at)
  WHERE status IN ('STARTED', 'REQUIRES_ACTION', 'PENDING') OR (order_id IS NULL AND status IN ('APPROVED', 'AUTHORIZED'));

-- Every call made to a provider for an order's payment, with the provider's own id.
CREATE TABLE payment_transactions (
  site_id                 text NOT NULL,
  transaction_id          text NOT NULL,
  order_id                text NOT NULL,
  payment_id              text NOT NULL,
  -- PAYMENT, CAPTURE, VOID, REFUND, CHARGEBACK
  kind                    text NOT NULL,
  provider                text NOT NULL,
  provider_transaction_id text,
  idempotency_key         text,
  amount_minor            bigint NOT NULL,
  status                  text NOT NULL,
  failure                 text,
  created_at              timestamptz NOT NULL,
  PRIMARY KEY (site_id, transaction_id),
  FOREIGN KEY (site_id, order_id) REFERENCES orders (site_id, order_id) ON DELETE CASCADE
);
CREATE INDEX payment_transactions_by_order ON payment_transactions (site_id, order_id, created_at);
CREATE UNIQUE INDEX payment_transactions_by_key ON payment_transactions (site_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

-- A site's payment provider and its keys (secrets encrypted; never read back out to a client).
CREATE TABLE payment_settings (
  site_id               text PRIMARY KEY REFERENCES sites (site_id) ON DELETE CASCADE,
  provider              text NOT NULL,
  capture_policy        text NOT NULL,
  offline_methods       jsonb NOT NULL,
  publishable_key       text,
  secret_key_sealed     text,
  secret_key_hint       text,
  webhook_secret_sealed text,
  updated_at            timestamptz NOT NULL
);
