-- The fan-out's look for one site's oldest undelivered events (Citus claims per site; a worker
-- limited to some sites): `site_id = $1 AND delivered_at IS NULL ORDER BY seq LIMIT n`. The pending
-- index on (seq) alone left the planner, on statistics a burst of a new site had made stale (its
-- rows estimated at 1), to read the site's every row through the primary key and sort them: 28,000
-- pending and 22,000 delivered, an 8 MB sort on disk, 40 ms for each batch of 200 (auto_explain,
-- `npm run bench -- webhooks`). This index answers the look in order, whatever the statistics say.
CREATE INDEX outbox_events_pending_by_site ON outbox_events (site_id, seq) WHERE delivered_at IS NULL;
