-- A member's standing (role, status, existence) is read from this row on every call, through a
-- per-process cache (identity/access.ts). Two additions make that cache safe in every process:
--
-- access_epoch: bumped when every sign-in of the member ends (sign out everywhere, password
-- change, block). Access tokens carry the epoch they were issued in; an older one is refused.
--
-- bodega_member_access: a notice with '<siteId>/<memberId>' whenever a member's role, status or
-- epoch changes or the row is deleted. The trigger sends it in the changing transaction, so it
-- reaches every listening server at commit, whatever code (or hand-written SQL) made the change.
ALTER TABLE members ADD COLUMN IF NOT EXISTS access_epoch integer NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION members_notify_access() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('bodega_member_access', OLD.site_id || '/' || OLD.member_id);
  RETURN NULL;
END
$fn$;

DROP TRIGGER IF EXISTS members_access_changed ON members;
CREATE TRIGGER members_access_changed AFTER UPDATE OF role, status, access_epoch ON members FOR EACH ROW
  WHEN (OLD.role IS DISTINCT FROM NEW.role OR OLD.status IS DISTINCT FROM NEW.status OR OLD.access_epoch IS DISTINCT FROM NEW.access_epoch)
  EXECUTE FUNCTION members_notify_access();

DROP TRIGGER IF EXISTS members_access_deleted ON members;
CREATE TRIGGER members_access_deleted AFTER DELETE ON members FOR EACH ROW
  EXECUTE FUNCTION members_notify_access();
