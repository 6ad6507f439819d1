-- No query reads outbox_events_pending any more: the webhook fan-out takes undelivered rows in
-- seq order (outbox_events_undispatched, 0600) and the metrics count uses that index too. Each
-- event paid for it (~200 B of WAL per add-to-cart, its page splits included).
DROP INDEX IF EXISTS outbox_events_pending;
