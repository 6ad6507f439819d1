-- Uploaded product pictures (issue 30): one row per picture a site's staff uploaded, named by the
-- SHA-256 of its bytes (so its URL never changes meaning and is cached for a year). The bytes and
-- the sizes made from them live in the file storage under <site>/media/<hash>/.
CREATE TABLE media_files (
  site_id       text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  hash          text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
  -- image/jpeg, image/png, image/webp, image/avif or image/gif: sniffed from the bytes.
  content_type  text NOT NULL,
  -- As displayed (EXIF orientation applied).
  width         integer NOT NULL CHECK (width > 0),
  height        integer NOT NULL CHECK (height > 0),
  size_bytes    bigint NOT NULL CHECK (size_bytes > 0),
  file_name     text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL,
  PRIMARY KEY (site_id, hash)
);
