-- Voided and deleted invoices (issue 31; spec: invoice status Void, Deleted). Staff void an issued
-- invoice the customer was sent (Sent, Overdue) or delete one never sent (Draft); either keeps its
-- row and its number, so the site's numbers stay without gaps, and its status reads Void or Deleted
-- from these instants (before anything the order says). The order may then have a new invoice:
-- "one numbered invoice per order" now counts only the invoices still standing.
ALTER TABLE order_invoices ADD COLUMN voided_at timestamptz;
ALTER TABLE order_invoices ADD COLUMN deleted_at timestamptz;
ALTER TABLE order_invoices ADD CONSTRAINT order_invoices_void_or_deleted CHECK (voided_at IS NULL OR deleted_at IS NULL);
DROP INDEX IF EXISTS order_invoices_one_per_order;
CREATE UNIQUE INDEX order_invoices_one_per_order ON order_invoices (site_id, order_id)
  WHERE number IS NOT NULL AND voided_at IS NULL AND deleted_at IS NULL;
