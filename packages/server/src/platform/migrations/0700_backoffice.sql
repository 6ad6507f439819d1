-- The back office: API keys show a short prefix; import jobs run on the server with their failed rows.
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS key_prefix text;

-- One import (products or data-collection items). The uploaded file is kept until the job ends.
-- A job whose server stopped is taken again once its lease has passed.
CREATE TABLE import_jobs (
  site_id             text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  job_id              text NOT NULL,
  target              text NOT NULL CHECK (target IN ('products', 'data-items')),
  data_collection_id  text,
  format              text NOT NULL CHECK (format IN ('csv', 'json')),
  content             text,
  status              text NOT NULL CHECK (status IN ('QUEUED', 'RUNNING', 'DONE', 'FAILED')),
  total               integer NOT NULL DEFAULT 0,
  processed           integer NOT NULL DEFAULT 0,
  succeeded           integer NOT NULL DEFAULT 0,
  failed              integer NOT NULL DEFAULT 0,
  error               text,
  lease_until         timestamptz,
  created_at          timestamptz NOT NULL,
  finished_at         timestamptz,
  PRIMARY KEY (site_id, job_id)
);
CREATE INDEX import_jobs_waiting ON import_jobs (status, lease_until) WHERE status IN ('QUEUED', 'RUNNING');

CREATE TABLE import_job_failures (
  site_id     text NOT NULL,
  job_id      text NOT NULL,
  row_number  integer NOT NULL,
  error       text NOT NULL,
  data        jsonb NOT NULL,
  PRIMARY KEY (site_id, job_id, row_number),
  FOREIGN KEY (site_id, job_id) REFERENCES import_jobs (site_id, job_id) ON DELETE CASCADE
);
