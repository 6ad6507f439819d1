-- Data collections: their fields (descriptive, not enforced) and per-operation permissions.
CREATE TABLE data_collections (
  site_id        text NOT NULL,
  collection_id  text NOT NULL,
  display_name   text,
  display_field  text,
  fields         jsonb NOT NULL DEFAULT '[]'::jsonb,
  permissions    jsonb NOT NULL,
  revision       bigint NOT NULL DEFAULT 1,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site_id, collection_id)
);

-- Items are JSONB documents, system fields (_id, _createdDate, _updatedDate, _owner) included.
-- Collection indexes are partial expression indexes on this table (services/data/indexes.ts).
CREATE TABLE data_items (
  site_id        text NOT NULL,
  collection_id  text NOT NULL,
  item_id        text NOT NULL,
  data           jsonb NOT NULL,
  PRIMARY KEY (site_id, collection_id, item_id)
);

-- Multi-reference links. position keeps the order references were added in.
CREATE SEQUENCE data_reference_position;
CREATE TABLE data_references (
  site_id                   text NOT NULL,
  collection_id             text NOT NULL,
  referring_item_id         text NOT NULL,
  field_name                text NOT NULL,
  referenced_item_id        text NOT NULL,
  referenced_collection_id  text NOT NULL,
  position                  bigint NOT NULL DEFAULT nextval('data_reference_position'),
  PRIMARY KEY (site_id, collection_id, referring_item_id, field_name, referenced_item_id)
);
-- Removing a referenced item removes the links to it.
CREATE INDEX data_references_by_referenced ON data_references (site_id, referenced_collection_id, referenced_item_id);

CREATE TABLE data_indexes (
  site_id           text NOT NULL,
  collection_id     text NOT NULL,
  index_name        text NOT NULL,
  pg_index          text NOT NULL,
  fields            jsonb NOT NULL,
  is_unique         boolean NOT NULL DEFAULT false,
  case_insensitive  boolean NOT NULL DEFAULT false,
  status            text NOT NULL CHECK (status IN ('BUILDING', 'ACTIVE', 'FAILED')),
  failure           jsonb,
  created_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site_id, collection_id, index_name)
);

-- Patch and remove by filter. A job's work and its final status commit together; a job left
-- INITIALIZED (its server stopped) is claimed again with FOR UPDATE SKIP LOCKED.
CREATE TABLE data_jobs (
  site_id        text NOT NULL,
  job_id         text NOT NULL,
  collection_id  text NOT NULL,
  kind           text NOT NULL CHECK (kind IN ('PATCH_BY_FILTER', 'REMOVE_BY_FILTER')),
  request        jsonb NOT NULL,
  status         text NOT NULL CHECK (status IN ('INITIALIZED', 'PROCESSING', 'SUCCEEDED', 'FAILED')),
  success_count  integer NOT NULL DEFAULT 0,
  failure        jsonb,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site_id, job_id)
);
CREATE INDEX data_jobs_waiting ON data_jobs (site_id, created_at) WHERE status = 'INITIALIZED';
