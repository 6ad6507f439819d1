// Back from the card issuer's own page (a full-page 3-D Secure redirect): Stripe sends the shopper
// to the checkout with `payment_intent`, `payment_intent_client_secret` and `redirect_status`. The
// server is asked (it looks the payment up at the provider; the URL's status is only a hint), and
// the order is placed, or the reason is given in words and the checkout stays open for a retry.
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from '../router/Router.js';
import { errorCode } from '../shop/errors.js';
import { useShop } from '../shop/context.js';
import { thankYouTarget } from './handover.js';
import { usePaymentReturn } from './queries.js';
import { paymentProblem, type PaymentProblem } from './PaymentStep.js';

/** The answer after the bank's page, in the shopper's words. */
function returnProblem(error: unknown, redirectStatus: string | null): PaymentProblem {
  const problem = paymentProblem(error);
  if (errorCode(error) === 'PAYMENT_DECLINED' && redirectStatus === 'failed') {
    return { message: 'Your bank did not confirm the payment, so nothing was charged. Try again, or use another card or another way to pay.', retry: true };
  }
  if (errorCode(error) === 'PAYMENT_NOT_FOUND') return { message: 'We could not find that payment. Nothing was charged: pay again.', retry: true };
  return problem;
}

export function useBankReturn(checkoutId: string): { checking: boolean; failure?: PaymentProblem } {
  const { client } = useShop();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const intentId = params.get('payment_intent') ?? '';
  const redirectStatus = params.get('redirect_status');
  const resume = usePaymentReturn(checkoutId);
  const asked = useRef(false);
  const [failure, setFailure] = useState<PaymentProblem>();

  useEffect(() => {
    if (!intentId || !checkoutId || !client || asked.current) return;
    asked.current = true;
    resume.mutateAsync(intentId).then((orderId) => {
      const next = thankYouTarget(checkoutId, orderId);
      if (next.external) window.location.replace(next.url);
      else navigate(next.url, { replace: true });
    }, (error: unknown) => {
      setFailure(returnProblem(error, redirectStatus));
      // The checkout's own address again: a reload does not ask a second time.
      setParams({ checkoutId }, { replace: true });
    });
  }, [intentId, checkoutId, client, redirectStatus, resume, navigate, setParams]);

  return { checking: intentId !== '' && !failure, ...(failure && { failure }) };
}
