-- Invoice due dates (issue 31): the site's payment terms (days after issue; NULL: invoices have no
-- due date) and each numbered invoice's due date, fixed when it is issued. An unpaid invoice past
-- its due date is Overdue, a partly paid one PartialAndOverdue; the status is read from the order
-- and the clock, never stored.
ALTER TABLE invoice_settings ADD COLUMN payment_terms_days integer CHECK (payment_terms_days BETWEEN 0 AND 365);
ALTER TABLE order_invoices ADD COLUMN due_at timestamptz;
CREATE INDEX order_invoices_by_due_date ON order_invoices (site_id, due_at) WHERE due_at IS NOT NULL;
