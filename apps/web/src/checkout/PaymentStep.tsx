// The checkout's payment step: what the store offers (a card through its provider, its offline
// methods), the card entry (Stripe's own Payment Element, loaded from js.stripe.com, so the card
// never reaches Bodega; the test provider's plain fields in the demo store), and each payment
// problem explained in words with what the shopper can do next.
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import type { PaymentOptions } from '@bodega/sdk';
import { errorCode, plainError } from '../shop/errors.js';
import { Field } from '../ui/Field.js';
import { Notice } from '../ui/Notice.js';

const OFFLINE_LABELS: Record<string, { label: string; note: string }> = {
  PAY_LATER: { label: 'Pay later', note: 'We will e-mail you how to pay. The order is kept for you until then.' },
  BANK_TRANSFER: { label: 'Bank transfer', note: 'We will e-mail you our bank details. We ship once the transfer arrives.' },
  CASH_ON_DELIVERY: { label: 'Cash on delivery', note: 'Pay the courier or at pickup.' },
};

/** What the step hands the checkout: the payment token to send, or null when the entry is not valid yet. */
export interface PaymentStepHandle {
  token(): Promise<string | null>;
  /** Runs the card issuer's check (3-D Secure) in the page when the provider can; true when done. */
  confirm(problem: PaymentProblem): Promise<boolean>;
}

export interface PaymentProblem {
  message: string;
  /** The shopper may try again (another card, or the same after a moment). */
  retry: boolean;
  /** The card issuer asks the shopper to confirm (3-D Secure). */
  action?: { url?: string; clientSecret?: string };
}

/** A failed place-order call in the shopper's words. */
export function paymentProblem(error: unknown): PaymentProblem {
  const code = errorCode(error);
  const data = (error as { details?: { applicationError?: { data?: Record<string, unknown> } } }).details?.applicationError?.data ?? {};
  switch (code) {
    case 'PAYMENT_DECLINED':
      return { message: `Your card was declined (${String(data.failureDetails ?? 'the card issuer refused it').replace(/\.$/, '')}). Nothing was charged. Try another card or another way to pay.`, retry: true };
    case 'PAYMENT_ACTION_REQUIRED':
      return {
        message: 'Your bank asks you to confirm this payment (3-D Secure). Confirm it, and your order is placed.',
        retry: true,
        action: { ...(typeof data.actionUrl === 'string' && { url: data.actionUrl }), ...(typeof data.paymentResponseToken === 'string' && { clientSecret: data.paymentResponseToken }) },
      };
    case 'PAYMENT_PROVIDER_UNAVAILABLE':
      return { message: 'The payment service did not answer in time. You were not charged twice: try again in a moment.', retry: true };
    case 'INVALID_PAYMENT_TOKEN':
      return { message: 'The card details were not accepted. Check them, or use another card.', retry: true };
    case 'PAYMENT_METHOD_NOT_AVAILABLE':
    case 'PAYMENT_PROVIDER_IS_NOT_AVAILABLE_ON_SITE':
      return { message: 'This store does not take that way to pay. Choose another one.', retry: true };
    default:
      return { message: plainError(error, 'Your order was not placed. Try again.'), retry: code === undefined };
  }
}

// Stripe.js, loaded from Stripe: only the calls this step makes.
interface StripeElement { mount(el: HTMLElement): void; destroy(): void }
interface StripeElements { create(kind: 'payment'): StripeElement; submit(): Promise<{ error?: { message?: string } }> }
interface StripeJs {
  elements(options: Record<string, unknown>): StripeElements;
  createPaymentMethod(options: { elements: StripeElements }): Promise<{ paymentMethod?: { id: string }; error?: { message?: string } }>;
  handleNextAction(options: { clientSecret: string }): Promise<{ error?: { message?: string } }>;
}
type StripeFactory = (publishableKey: string) => StripeJs;

function loadStripe(): Promise<StripeFactory> {
  const w = window as unknown as { Stripe?: StripeFactory };
  if (w.Stripe) return Promise.resolve(w.Stripe);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = 'https://js.stripe.com/v3/';
    script.async = true;
    script.onload = () => (w.Stripe ? resolve(w.Stripe) : reject(new Error('Stripe did not load')));
    script.onerror = () => reject(new Error('Stripe did not load'));
    document.head.appendChild(script);
  });
}

/** "12.50" → 1250 without floating point (the Payment Element takes minor units). */
function minorUnits(amount: string): number {
  const [whole, fraction = ''] = amount.split('.');
  return Number(whole) * 100 + Number((fraction + '00').slice(0, 2));
}

interface Props {
  options: PaymentOptions | undefined;
  total: { amount?: string; currency?: string };
}

export const PaymentStep = forwardRef<PaymentStepHandle, Props>(function PaymentStep({ options, total }, ref) {
  const online = options ? options.provider !== 'none' : true;
  const offline = options?.offlineMethods ?? ['PAY_LATER'];
  const [method, setMethod] = useState<string>(online ? 'card' : offline[0] ?? 'card');
  const [card, setCard] = useState({ number: '', expiry: '', cvc: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [stripeError, setStripeError] = useState<string>();
  const mountRef = useRef<HTMLDivElement>(null);
  const stripeRef = useRef<{ stripe: StripeJs; elements: StripeElements }>(undefined);
  const stripeMode = method === 'card' && options?.provider === 'stripe' && options.publishableKey;

  useEffect(() => {
    if (!online && method === 'card' && offline[0]) setMethod(offline[0]);
  }, [online, method, offline]);

  useEffect(() => {
    if (!stripeMode || !options?.publishableKey || !mountRef.current) return;
    let element: StripeElement | undefined;
    let cancelled = false;
    loadStripe().then((factory) => {
      if (cancelled || !mountRef.current || !options.publishableKey) return;
      const stripe = factory(options.publishableKey);
      const elements = stripe.elements({ mode: 'payment', amount: minorUnits(total.amount ?? '0'), currency: (total.currency ?? 'usd').toLowerCase(), paymentMethodCreation: 'manual' });
      element = elements.create('payment');
      element.mount(mountRef.current);
      stripeRef.current = { stripe, elements };
    }).catch(() => setStripeError('The card form could not load. Check your connection and reload the page, or choose another way to pay.'));
    return () => {
      cancelled = true;
      element?.destroy();
    };
  }, [stripeMode, options?.publishableKey, total.amount, total.currency]);

  useImperativeHandle(ref, () => ({
    async token() {
      if (method !== 'card') return `offline:${method}`;
      if (stripeMode) {
        const loaded = stripeRef.current;
        if (!loaded) {
          setStripeError('The card form is still loading. Wait a moment and try again.');
          return null;
        }
        const submitted = await loaded.elements.submit();
        if (submitted.error) return null; // the Payment Element shows its own message
        const created = await loaded.stripe.createPaymentMethod({ elements: loaded.elements });
        if (created.error || !created.paymentMethod) {
          setStripeError(created.error?.message ?? 'The card could not be read. Check it and try again.');
          return null;
        }
        return created.paymentMethod.id;
      }
      const next: Record<string, string> = {};
      const digits = card.number.replace(/[\s-]/g, '');
      if (!/^\d{13,19}$/.test(digits)) next.number = 'Enter the 13 to 19 digits of the card number';
      if (!/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/.test(card.expiry.trim())) next.expiry = 'Enter the expiry date as MM/YY';
      if (!/^\d{3,4}$/.test(card.cvc.trim())) next.cvc = 'Enter the 3 or 4 digit security code';
      setErrors(next);
      return Object.keys(next).length ? null : digits;
    },
    async confirm(problem) {
      const clientSecret = problem.action?.clientSecret;
      if (stripeRef.current && clientSecret) {
        const done = await stripeRef.current.stripe.handleNextAction({ clientSecret });
        return !done.error;
      }
      // The test provider: the challenge is passed by confirming.
      return true;
    },
  }), [method, stripeMode, card]);

  const choices = [...(online ? [{ value: 'card', label: 'Card', note: '' }] : []), ...offline.map((m) => ({ value: m, label: OFFLINE_LABELS[m]?.label ?? m, note: OFFLINE_LABELS[m]?.note ?? '' }))];
  return (
    <div className="payment-step">
      <fieldset className="segmented">
        <legend className="visually-hidden">Payment method</legend>
        {choices.map((c) => (
          <label key={c.value}><input type="radio" name="payment-method" value={c.value} checked={method === c.value} onChange={() => setMethod(c.value)} /> <span>{c.label}</span></label>
        ))}
      </fieldset>
      {method !== 'card' ? <p className="muted">{OFFLINE_LABELS[method]?.note}</p>
        : stripeMode ? (
          <>
            <div ref={mountRef} className="stripe-element" aria-label="Card details, entered with Stripe" />
            {stripeError && <Notice kind="error">{stripeError}</Notice>}
            <p className="muted small">Your card goes straight to Stripe; this store never sees its number.</p>
          </>
        ) : (
          <>
            <Field label="Card number" inputMode="numeric" autoComplete="cc-number" value={card.number} onChange={(e) => setCard({ ...card, number: e.target.value })} error={errors.number}
              hint="Test store: 4242 4242 4242 4242 is approved, 4000 0000 0000 0002 is declined, 4000 0027 6000 3184 asks for 3-D Secure." />
            <div className="two">
              <Field label="Expiry (MM/YY)" autoComplete="cc-exp" inputMode="numeric" value={card.expiry} onChange={(e) => setCard({ ...card, expiry: e.target.value })} error={errors.expiry} />
              <Field label="Security code" autoComplete="cc-csc" inputMode="numeric" value={card.cvc} onChange={(e) => setCard({ ...card, cvc: e.target.value })} error={errors.cvc} />
            </div>
          </>
        )}
    </div>
  );
});
