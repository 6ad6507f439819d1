-- The member who created a redirect session (visitor_id holds an anonymous creator): the hosted
-- checkout hands the session's shopper over to the page that claims it, once.
ALTER TABLE redirect_sessions ADD COLUMN member_id text;
