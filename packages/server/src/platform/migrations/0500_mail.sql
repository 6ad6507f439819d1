-- Every e-mail the server sends, with its delivery status. Without SMTP_URL mail stays here
-- (STORED) for the back office; with it, QUEUED mail is claimed and sent (SENT or FAILED).
CREATE TABLE mail_outbox (
  site_id       text NOT NULL,
  mail_id       text NOT NULL,
  kind          text NOT NULL,
  to_address    text NOT NULL,
  subject       text NOT NULL,
  text_body     text NOT NULL,
  html_body     text NOT NULL,
  status        text NOT NULL CHECK (status IN ('STORED', 'QUEUED', 'SENDING', 'SENT', 'FAILED')),
  attempts      integer NOT NULL DEFAULT 0,
  last_error    text,
  created_at    timestamptz NOT NULL,
  next_attempt_at timestamptz NOT NULL,
  sent_at       timestamptz,
  PRIMARY KEY (site_id, mail_id)
);
CREATE INDEX mail_outbox_by_date ON mail_outbox (site_id, created_at);
CREATE INDEX mail_outbox_pending ON mail_outbox (site_id, next_attempt_at) WHERE status IN ('QUEUED', 'SENDING');
