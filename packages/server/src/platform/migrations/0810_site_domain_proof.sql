-- A domain serves a site's pages (and is an allowed redirect origin) only once it is proven:
-- by the operator (the CLI) or by its owner publishing the row's token in DNS (TXT
-- `_bodega.<domain>`) or at `http://<domain>/.well-known/bodega/<token>`. Until then it is PENDING,
-- and any number of sites may hold the same name PENDING (so nobody can block a name by claiming
-- it first); only one site can hold it verified. Rows from before this change are PENDING: a
-- name nobody proved (the server's own address, say) stops serving until it is proven.
ALTER TABLE site_domains
  ADD COLUMN token         text,
  ADD COLUMN verified_at   timestamptz,
  ADD COLUMN verified_by   text CHECK (verified_by IN ('OPERATOR', 'DNS_TXT', 'WELL_KNOWN')),
  ADD COLUMN checked_at    timestamptz,
  ADD COLUMN check_problem text;
UPDATE site_domains SET token = 'bodega-' || replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '');
ALTER TABLE site_domains ALTER COLUMN token SET NOT NULL;
ALTER TABLE site_domains DROP CONSTRAINT site_domains_pkey;
ALTER TABLE site_domains ADD PRIMARY KEY (site_id, domain);
DROP INDEX site_domains_by_site;
CREATE UNIQUE INDEX site_domains_verified ON site_domains (domain) WHERE verified_at IS NOT NULL;
