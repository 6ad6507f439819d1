-- Tips (issue 31): the shopper's tip choice for a checkout (the official tips' tipChoice:
-- {tipType, value}), priced with the site's tip settings and carried onto the order.
ALTER TABLE checkouts ADD COLUMN IF NOT EXISTS tip_choice jsonb;
