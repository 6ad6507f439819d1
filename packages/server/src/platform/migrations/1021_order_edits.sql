-- Order edits (issue 31): a draft order may be an edit of a placed order (createDraftOrder({orderId})).
-- edits_order_id is that order; order_revision its updatedDate when the draft was made, the revision
-- the commit checks under the order's row lock (no lost update).
ALTER TABLE draft_orders ADD COLUMN edits_order_id text;
ALTER TABLE draft_orders ADD COLUMN order_revision text;
