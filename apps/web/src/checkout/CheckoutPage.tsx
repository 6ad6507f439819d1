import { lazy, Suspense } from 'react';
import { useSearchParams } from '../router/Router.js';
import { EmptyState, ErrorState, Loading } from '../ui/States.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { HandoverStatus, useCheckoutHandover } from './handover.js';
import { useCheckout } from './queries.js';
import { useBankReturn } from './bank-return.js';
import { usePreload } from '../ui/lazyResolver.js';

// The form (react-hook-form, the payment step, shipping options, the summary) is a bundle of its
// own: the page's first view is the loading state while the checkout itself is fetched, and the
// form's bundle loads in the same moment, so it is rarely waited for.
const loadForm = () => import('./CheckoutForm.js');
const CheckoutForm = lazy(loadForm);

/** What the page shows while the checkout (or its form's bundle) loads: the same box either way, so nothing moves. */
const loading = <div className="container checkout"><h1>Checkout</h1><Loading label="Loading checkout…" lines={6} page /></div>;

export default function CheckoutPage() {
  usePageTitle('Checkout');
  const [params] = useSearchParams();
  const checkoutId = params.get('checkoutId') ?? '';
  // Opened from an app's checkout link: become that link's shopper first (handover.tsx).
  const handover = useCheckoutHandover(checkoutId);
  if (handover.state === 'claiming' || handover.state === 'refused') return <div className="container checkout"><h1>Checkout</h1><HandoverStatus {...handover} /></div>;
  return <CheckoutContent checkoutId={checkoutId} />;
}

function CheckoutContent({ checkoutId }: { checkoutId: string }) {
  const checkout = useCheckout(checkoutId);
  usePreload(loadForm);
  const bank = useBankReturn(checkoutId);
  if (bank.checking) return <div className="container checkout"><h1>Checkout</h1><p role="status">Checking your payment with your bank…</p><Loading label="" lines={3} page /></div>;
  if (!checkoutId) return <div className="container checkout"><h1>Checkout</h1><EmptyState title="No checkout in progress" action={{ to: '/cart', label: 'Go to your cart' }} /></div>;
  if (checkout.isPending) return loading;
  if (checkout.isError) {
    return <div className="container checkout"><h1>Checkout</h1><ErrorState error={checkout.error} retry={() => void checkout.refetch()} title="Your checkout didn’t load" /></div>;
  }
  if (checkout.data.completed) {
    return <div className="container checkout"><h1>Checkout</h1><EmptyState title="This order has been placed" action={{ to: '/account/orders', label: 'See your orders' }}><p>Thank you! You can find the order in your account or in the confirmation e-mail.</p></EmptyState></div>;
  }
  if (checkout.data.lineItems.length === 0) return <div className="container checkout"><h1>Checkout</h1><EmptyState title="This checkout is empty" action={{ to: '/products', label: 'Continue shopping' }} /></div>;
  return <Suspense fallback={loading}><CheckoutForm checkout={checkout.data} checkoutId={checkoutId} returnFailure={bank.failure} /></Suspense>;
}
