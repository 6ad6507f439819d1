import { Link } from '../router/Router.js';
import { EmptyState, ErrorState, Loading } from '../ui/States.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { useMyOrders } from './queries.js';
import { paymentLabel, fulfillmentLabel, orderDate } from './labels.js';

export default function OrdersPage() {
  usePageTitle('Your orders');
  const orders = useMyOrders();
  if (orders.isPending) return <><h1>Orders</h1><Loading label="Loading your orders…" /></>;
  if (orders.isError) return <><h1>Orders</h1><ErrorState error={orders.error} retry={() => void orders.refetch()} /></>;
  const list = orders.data.pages.flatMap((p) => p.orders);
  if (list.length === 0) return <><h1>Orders</h1><EmptyState title="No orders yet" action={{ to: '/products', label: 'Start shopping' }}><p>Orders you place while signed in show up here.</p></EmptyState></>;
  return (
    <>
      <h1>Orders</h1>
      <ul className="order-list" role="list">
        {list.map((order) => (
          <li key={order._id} className="panel order-row">
            <div>
              <p className="order-title"><Link to={`/account/orders/${order._id}`}>Order #{order.number}</Link></p>
              <p className="muted small">{orderDate(order._createdDate)} · {order.lineItems.length} {order.lineItems.length === 1 ? 'item' : 'items'}</p>
            </div>
            <div className="badges">
              <span className="badge">{paymentLabel(order.paymentStatus)}</span>
              <span className="badge badge-soft">{fulfillmentLabel(order.fulfillmentStatus)}</span>
            </div>
            <p className="order-total">{order.priceSummary?.total?.formattedAmount}</p>
          </li>
        ))}
      </ul>
      {orders.hasNextPage && (
        <p><button type="button" className="button secondary" onClick={() => void orders.fetchNextPage()} disabled={orders.isFetchingNextPage}>
          {orders.isFetchingNextPage ? 'Loading…' : 'Show older orders'}
        </button></p>
      )}
    </>
  );
}
