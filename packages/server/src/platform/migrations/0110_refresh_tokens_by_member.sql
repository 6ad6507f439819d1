-- Only members' sign-ins end by subject (password change, block, deletion): visitors' refresh
-- tokens leave this index, so the anonymous grant's insert updates two indexes, not three.
DROP INDEX refresh_tokens_by_subject;
CREATE INDEX refresh_tokens_by_subject ON refresh_tokens (site_id, subject_id) WHERE revoked_at IS NULL AND role = 'member';
