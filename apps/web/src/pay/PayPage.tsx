// The shop's payment step for one order, opened from a payment link the shop sent (a phone
// order, a balance after an edit): the order's lines and totals, what is due, and the card
// entry of the checkout (the site's provider). Paid, withdrawn or expired links say so in words.
import { useRef, useState } from 'react';
import { Link, useParams } from '../router/Router.js';
import { Totals } from '../cart/CartLines.js';
import { PaymentStep, paymentProblem, type PaymentProblem, type PaymentStepHandle } from '../checkout/PaymentStep.js';
import { usePaymentOptions } from '../checkout/queries.js';
import { plainError } from '../shop/errors.js';
import { isPositiveAmount } from '../ui/money.js';
import { Notice } from '../ui/Notice.js';
import { Loading } from '../ui/States.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { usePayLink, usePaymentLink } from './queries.js';

const CLOSED: Record<string, string> = {
  EXPIRED: 'This payment link has expired. Ask the shop for a new one.',
  VOIDED: 'The shop withdrew this payment request. Ask the shop how to pay.',
};

export default function PayPage() {
  const { token = '' } = useParams();
  const link = usePaymentLink(token);
  const options = usePaymentOptions();
  const pay = usePayLink(token);
  const step = useRef<PaymentStepHandle>(null);
  const paying = useRef(false);
  const [failure, setFailure] = useState<PaymentProblem>();
  const number = link.data?.order.number;
  usePageTitle(number ? `Pay for order #${number}` : 'Pay for your order');

  if (link.isPending) return <div className="container pay-page"><h1>Pay for your order</h1><Loading label="Loading your order…" /></div>;
  if (link.isError) {
    return (
      <div className="container pay-page">
        <h1>Pay for your order</h1>
        <Notice kind="error">{plainError(link.error, 'This payment link did not open. Ask the shop for a new one.')}</Notice>
        <p><Link to="/">Back to the shop</Link></p>
      </div>
    );
  }
  const { orderPaymentRequest: request, order } = link.data;

  async function charge(token: string) {
    if (paying.current) return; // a double click never pays twice
    paying.current = true;
    setFailure(undefined);
    try {
      await pay.mutateAsync(token);
    } catch (error) {
      setFailure(paymentProblem(error));
    } finally {
      paying.current = false;
    }
  }
  async function submit() {
    const token = await step.current?.token();
    if (token) await charge(token);
  }
  async function confirm(problem: PaymentProblem) {
    if (!(await step.current?.confirm(problem))) {
      setFailure({ message: 'The bank did not confirm the payment. Try again, or use another card.', retry: true });
      return;
    }
    await charge('resume');
  }

  const paid = request.status === 'PAID';
  const closed = CLOSED[request.status];
  return (
    <div className="container pay-page">
      <p className="eyebrow">{request.title}</p>
      <h1>Pay for order #{order.number}</h1>
      {request.description && <p>{request.description}</p>}
      <div className="checkout-layout">
        <section className="panel" aria-labelledby="pay-order-heading">
          <h2 id="pay-order-heading">Your order</h2>
          <ul className="mini-lines" role="list">
            {order.lineItems.map((line) => (
              <li key={line.id}>
                <span className="mini-name">{line.name}
                  {line.options.map((o) => <span key={o} className="block muted small">{o}</span>)}
                  <span className="muted small"> {line.price.formattedAmount} × {line.quantity}</span>
                </span>
                <span>{line.total.formattedAmount}</span>
              </li>
            ))}
          </ul>
          <Totals summary={order.priceSummary} />
          <dl className="totals">
            {isPositiveAmount(order.paid.amount) && <div><dt>Paid so far</dt><dd>{order.paid.formattedAmount}</dd></div>}
            <div className="grand"><dt>Amount due</dt><dd data-testid="amount-due">{order.balanceDue.formattedAmount}</dd></div>
          </dl>
        </section>
        <section className="panel" aria-labelledby="pay-heading">
          <h2 id="pay-heading">Payment</h2>
          {paid ? (
            <Notice kind="success"><p role="status">Thank you. Order #{order.number} is paid: {request.amount.formattedAmount} was charged.</p></Notice>
          ) : closed ? (
            <Notice kind="error">{closed}</Notice>
          ) : (
            <form noValidate onSubmit={(e) => { e.preventDefault(); void submit(); }}>
              {options.data
                ? <PaymentStep ref={step} options={{ ...options.data, offlineMethods: [] }} total={{ amount: request.amount.amount, currency: request.currency }} />
                : <Loading label="Loading the ways to pay…" lines={2} />}
              {failure && (
                <Notice kind="error">
                  <p>{failure.message}</p>
                  {failure.action && <p><button type="button" className="button secondary" onClick={() => void confirm(failure)} disabled={pay.isPending}>Confirm with your bank</button></p>}
                </Notice>
              )}
              <button type="submit" className="button large block" disabled={pay.isPending}>
                {pay.isPending ? 'Paying…' : `Pay ${request.amount.formattedAmount}`}
              </button>
            </form>
          )}
          <p className="muted small"><Link to="/">Back to the shop</Link></p>
        </section>
      </div>
    </div>
  );
}
