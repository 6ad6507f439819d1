-- Deliveries of one subscription and entity (a chain) go out one at a time, oldest first. The claim
-- used to find each chain's oldest pending delivery by walking the whole queue in seq order and
-- probing every row for an older one: with thousands queued behind a few busy carts it read every
-- one of them for each claim (20,000 rows, 81,000 buffers to claim nothing). Now the oldest pending
-- delivery of each chain carries `head`: set at fan-out (or replay) when its chain has no pending
-- delivery, passed on to the next one by the statement that finishes it (services/webhooks/claims.ts,
-- under the fan-out's advisory lock so a chain never ends up without a head), and the claim walks
-- only the heads.
--
-- The chain's lookups compare one key, subscription_id || ' ' || entity_id (a subscription id has
-- no space), through expression indexes: with the plain columns the planner, on statistics a
-- burst had made stale, took the deliveries' log index (site_id, subscription_id, created_at) for
-- them and read every delivery of the subscription per probe (measured: 560 ms for a fan-out batch
-- of 200, 2 ms after ANALYZE); no other index serves the key.
ALTER TABLE webhook_deliveries ADD COLUMN head boolean NOT NULL DEFAULT false;

-- A chain's pending deliveries in order (replaces webhook_deliveries_entity, which nothing reads any more).
CREATE INDEX webhook_deliveries_chain ON webhook_deliveries (site_id, (subscription_id || ' ' || entity_id), seq)
  WHERE status IN ('PENDING', 'SENDING');
DROP INDEX IF EXISTS webhook_deliveries_entity;

UPDATE webhook_deliveries d SET head = true
WHERE d.status IN ('PENDING', 'SENDING')
  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
    WHERE e.site_id = d.site_id AND (e.subscription_id || ' ' || e.entity_id) = (d.subscription_id || ' ' || d.entity_id)
      AND e.status IN ('PENDING', 'SENDING') AND (e.seq, e.delivery_id) < (d.seq, d.delivery_id));

-- The claim's walk: due heads, oldest first.
CREATE INDEX webhook_deliveries_heads ON webhook_deliveries (seq) WHERE head AND status IN ('PENDING', 'SENDING');
-- A new delivery's look for its chain's head.
CREATE INDEX webhook_deliveries_chain_head ON webhook_deliveries (site_id, (subscription_id || ' ' || entity_id))
  WHERE head AND status IN ('PENDING', 'SENDING');
-- Nothing walks the whole queue any more.
DROP INDEX IF EXISTS webhook_deliveries_queue;
