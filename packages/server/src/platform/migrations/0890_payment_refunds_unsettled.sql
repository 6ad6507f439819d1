-- The sweep's work list of refunds the provider has not answered yet: SCHEDULED (the provider did
-- not answer when the merchant refunded) and STARTED (being sent again under the same key).
CREATE INDEX payment_transactions_unsettled ON payment_transactions (created_at)
  WHERE kind = 'REFUND' AND status IN ('SCHEDULED', 'STARTED');
