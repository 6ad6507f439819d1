-- The audit log: one row per staff or API-key action on money, access or settings, written in the
-- same transaction as the change (platform/audit.ts). The application only appends: the trigger
-- below refuses UPDATE and TRUNCATE always, and DELETE unless the transaction set
-- `bodega.audit_prune` (the retention prune, services/audit/store.ts, with SET LOCAL semantics).
CREATE TABLE audit_log (
  site_id      text NOT NULL,
  entry_id     text NOT NULL,
  recorded_at  timestamptz NOT NULL,
  -- MEMBER (a signed-in member: owner, contributor or member, actor_role says which), API_KEY, or
  -- SYSTEM (no caller: the CLI, a job). actor_id is the member id or the API key id.
  actor_kind   text NOT NULL CHECK (actor_kind IN ('MEMBER', 'API_KEY', 'SYSTEM')),
  actor_id     text,
  actor_role   text,
  actor_email  text,
  action       text NOT NULL,
  object_type  text NOT NULL,
  object_id    text NOT NULL,
  before       jsonb,
  after        jsonb,
  ip           text,
  request_id   text,
  PRIMARY KEY (site_id, entry_id)
);
-- The back office lists newest first and pages by (recorded_at, entry_id); the prune reads it too.
CREATE INDEX audit_log_by_time ON audit_log (site_id, recorded_at DESC, entry_id DESC);
-- The list's filters on action, actor and object, each a prefix scan in time order.
CREATE INDEX audit_log_by_action ON audit_log (site_id, action, recorded_at DESC, entry_id DESC);
CREATE INDEX audit_log_by_actor ON audit_log (site_id, actor_id, recorded_at DESC, entry_id DESC);
CREATE INDEX audit_log_by_object ON audit_log (site_id, object_type, object_id, recorded_at DESC, entry_id DESC);

CREATE FUNCTION audit_log_append_only() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('bodega.audit_prune', true) = 'on' THEN
    RETURN NULL;
  END IF;
  RAISE EXCEPTION 'the audit log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$fn$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();

-- How long a site keeps its audit log; a site without a row keeps the default (services/audit).
CREATE TABLE audit_settings (
  site_id         text PRIMARY KEY,
  retention_days  integer NOT NULL CHECK (retention_days BETWEEN 1 AND 3650),
  updated_at      timestamptz NOT NULL
);
