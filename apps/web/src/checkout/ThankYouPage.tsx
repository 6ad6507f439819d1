import { Link, useSearchParams } from '../router/Router.js';
import { Totals } from '../cart/CartLines.js';
import { useSignedIn } from '../shop/member.js';
import { ErrorState, Loading } from '../ui/States.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { useOrder } from './queries.js';

export default function ThankYouPage() {
  usePageTitle('Thank you');
  const [params] = useSearchParams();
  const orderId = params.get('orderId') ?? '';
  const order = useOrder(orderId);
  const signedIn = useSignedIn();
  return (
    <div className="container narrow thank-you">
      <p className="eyebrow">Order confirmed</p>
      <h1>Thank you for your order</h1>
      {order.isPending ? <Loading label="Loading your order…" />
        : order.isError ? <ErrorState error={order.error} retry={() => void order.refetch()} />
          : (
            <div className="panel">
              <p className="order-number">Order number <strong data-testid="order-number">{order.data.number}</strong></p>
              <p>We sent a confirmation to <strong className="email">{order.data.buyerInfo?.email ?? 'your e-mail'}</strong>.</p>
              <ul className="mini-lines" role="list">
                {order.data.lineItems.map((line) => (
                  <li key={line._id}>
                    <span className="mini-name">{line.productName?.original}<span className="muted small"> {line.price?.formattedAmount} × {line.quantity}</span></span>
                    {/* unit price × quantity; the discount and the tax are rows of the totals below */}
                    <span>{line.lineItemPrice?.formattedAmount ?? line.price?.formattedAmount}</span>
                  </li>
                ))}
              </ul>
              <Totals summary={order.data.priceSummary} fees={order.data.additionalFees} currency={order.data.currency} />
            </div>
          )}
      <p className="actions">
        <Link className="button" to="/products">Continue shopping</Link>
        {signedIn ? <Link className="button secondary" to="/account/orders">See your orders</Link>
          : <Link className="button secondary" to="/auth/register">Create an account to track orders</Link>}
      </p>
    </div>
  );
}
