-- A member's refresh grant locks its family's first token and spends the presented token's
-- unused children. The official SDK keeps presenting its first token, so a family grows by one
-- child per renewal, and both statements read every row of it through the old indexes (the
-- session's, and the parent's with spent children in it): each renewal cost more than the last.
-- These two partial indexes answer each of them with the one or two rows it changes.
CREATE INDEX IF NOT EXISTS refresh_tokens_family_first ON refresh_tokens (site_id, session_id) WHERE parent_hash IS NULL;
CREATE INDEX IF NOT EXISTS refresh_tokens_unspent_children ON refresh_tokens (site_id, parent_hash) WHERE parent_hash IS NOT NULL AND spent_at IS NULL;
DROP INDEX IF EXISTS refresh_tokens_by_parent;
