-- A count bumped by every write of a cart row (and every change of its lines writes the row), so
-- add-to-cart can tell whether its statement's snapshot missed a change committed while it waited
-- on the row lock, and only then read the lines again.
ALTER TABLE carts ADD COLUMN revision bigint NOT NULL DEFAULT 0;
