import { Link, useParams } from '../router/Router.js';
import { Totals } from '../cart/CartLines.js';
import { useOrder } from '../checkout/queries.js';
import { countryName } from '../shop/countries.js';
import { ErrorState, Loading } from '../ui/States.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { fulfillmentLabel, orderDate, paymentLabel } from './labels.js';
import { useFulfillments } from './queries.js';
import { OrderInvoices } from './OrderInvoices.js';

export default function OrderDetailPage() {
  const { orderId = '' } = useParams();
  const order = useOrder(orderId);
  const fulfillments = useFulfillments(orderId);
  usePageTitle(order.data ? `Order #${order.data.number}` : 'Order');
  if (order.isPending) return <Loading label="Loading the order…" />;
  if (order.isError) return <><h1>Order</h1><ErrorState error={order.error} retry={() => void order.refetch()} /></>;
  const o = order.data;
  const destination = o.shippingInfo?.logistics?.shippingDestination?.address;
  const tracking = (fulfillments.data ?? []).filter((f) => f.trackingInfo?.trackingNumber);
  return (
    <>
      <p className="small"><Link to="/account/orders">← All orders</Link></p>
      <h1>Order #{o.number}</h1>
      <p className="muted">Placed {orderDate(o._createdDate)}</p>
      <div className="detail-grid">
        <section className="panel" aria-labelledby="status-heading">
          <h2 id="status-heading">Status</h2>
          <dl className="facts">
            <dt>Payment</dt><dd>{paymentLabel(o.paymentStatus)}</dd>
            <dt>Delivery</dt><dd>{fulfillmentLabel(o.fulfillmentStatus)}</dd>
            {o.shippingInfo?.title && <><dt>Method</dt><dd>{o.shippingInfo.title}</dd></>}
            {destination && <><dt>Ship to</dt><dd>{[destination.addressLine, destination.city, destination.postalCode, countryName(destination.country ?? undefined)].filter(Boolean).join(', ')}</dd></>}
            <dt>Tracking</dt>
            <dd>{tracking.length ? tracking.map((f) => (
              <span key={f.id} className="block">
                {f.trackingInfo?.shippingProvider} {f.trackingInfo?.trackingLink ? <a href={f.trackingInfo.trackingLink} rel="noreferrer">{f.trackingInfo.trackingNumber}</a> : f.trackingInfo?.trackingNumber}
              </span>
            )) : 'Shown here once the order ships.'}</dd>
          </dl>
        </section>
        <section className="panel" aria-labelledby="items-heading">
          <h2 id="items-heading">Items</h2>
          <ul className="mini-lines" role="list">
            {o.lineItems.map((line) => (
              <li key={line._id}>
                <span className="mini-name">{line.productName?.original}<span className="muted small"> × {line.quantity}</span></span>
                <span>{line.lineItemPrice?.formattedAmount ?? line.price?.formattedAmount}</span>
              </li>
            ))}
          </ul>
          <Totals summary={o.priceSummary} fees={o.additionalFees} currency={o.currency} />
        </section>
        <OrderInvoices orderId={orderId} />
      </div>
    </>
  );
}
