import * as Dialog from '@radix-ui/react-dialog';
import { Link } from '../router/Router.js';
import { ErrorState, Loading } from '../ui/States.js';
import { CartLines, CheckoutButton } from './CartLines.js';
import { cartCount, useCart, useCartTotals } from './queries.js';

/** The cart as a side drawer, opened on add to cart and from the header. */
export default function CartDrawer({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const cart = useCart();
  const count = cartCount(cart.data);
  const totals = useCartTotals(undefined, undefined, open && count > 0);
  const close = () => onOpenChange(false);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="drawer-overlay" />
        <Dialog.Content className="drawer" aria-describedby={undefined}>
          <div className="drawer-head">
            <Dialog.Title>Your cart{count ? ` (${count})` : ''}</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close cart">
              <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2"><path d="M6 6l12 12M18 6 6 18" /></svg>
            </Dialog.Close>
          </div>
          <div className="drawer-body">
            {cart.isPending ? <Loading label="Loading your cart…" />
              : cart.isError ? <ErrorState error={cart.error} retry={() => void cart.refetch()} />
                : !cart.data || cart.data.lineItems.length === 0 ? (
                  <div className="state"><p>Your cart is empty.</p><p><Link className="button" to="/products" onClick={close}>Start shopping</Link></p></div>
                ) : <CartLines cart={cart.data} compact />}
          </div>
          {cart.data && cart.data.lineItems.length > 0 && (
            <div className="drawer-foot">
              <p className="drawer-subtotal"><span>Subtotal</span><strong>{totals.data?.priceSummary?.subtotal?.formattedAmount ?? '…'}</strong></p>
              <p className="muted small">Shipping, tax and discount codes on the next step.</p>
              <CheckoutButton onStarted={close} />
              <Link to="/cart" className="button secondary block" onClick={close}>View cart and estimate shipping</Link>
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
