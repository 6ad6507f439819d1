-- Payment requests (issue 31): the balance due of an order, asked of the customer through a link
-- to the shop's payment step (@wix/ecom orderPaymentRequests). The link is signed with the server
-- key and expires; this row holds what the link asks for and whether it was paid. UNPAID → PAID
-- once (a conditional update), or VOIDED by the merchant; EXPIRED is read from expires_at.
CREATE TABLE order_payment_requests (
  site_id             text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  request_id          text NOT NULL,
  order_id            text NOT NULL,
  order_number        text NOT NULL,
  status              text NOT NULL CHECK (status IN ('UNPAID', 'PAID', 'VOIDED')),
  amount_minor        bigint NOT NULL CHECK (amount_minor > 0),
  currency            text NOT NULL,
  title               text NOT NULL,
  description         text,
  expires_at          timestamptz,
  source_app_id       text,
  source_external_id  text,
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL,
  paid_at             timestamptz,
  PRIMARY KEY (site_id, request_id)
);
CREATE INDEX order_payment_requests_by_date ON order_payment_requests (site_id, created_at DESC, request_id DESC);
CREATE INDEX order_payment_requests_by_order ON order_payment_requests (site_id, order_id);
