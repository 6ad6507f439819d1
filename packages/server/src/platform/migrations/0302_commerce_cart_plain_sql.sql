-- Reading and adding to a cart are plain statements again (cart/store.ts), prepared once per
-- connection by the pg driver, so the PL/pgSQL functions of 0301 no longer pay for themselves;
-- and the add-to-cart event goes through platform/events.ts instead of a copy of its insert.
DROP FUNCTION IF EXISTS commerce_read_cart(text, text, text);
DROP FUNCTION IF EXISTS commerce_add_to_cart(text, text, text, text, text, text, timestamptz, jsonb, text, jsonb);
