-- Two things nothing reads any more:
-- cart_lines_now: add-to-cart became one call of cart_add_lines (1130), which reads the lines itself.
-- order_invoices_by_due_date: an invoice's overdue status is a CASE over due_at in the list's query
-- (invoices/store.ts), which no (site_id, due_at) index serves; every invoice write paid for it.
DROP FUNCTION IF EXISTS cart_lines_now(text, text);
DROP INDEX IF EXISTS order_invoices_by_due_date;
