-- The host names a site's pages are served at. A name belongs to one site on the whole server,
-- so the Host header of a page request names at most one site.
CREATE TABLE site_domains (
  domain      text PRIMARY KEY,
  site_id     text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX site_domains_by_site ON site_domains (site_id);
