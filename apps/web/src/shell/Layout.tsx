import { lazy, Suspense, useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { cartCount, useCart } from '../cart/queries.js';
import { useShop } from '../shop/context.js';
import { useSignedIn } from '../shop/member.js';
import { SearchBox } from '../search/SearchBox.js';
import { useCartUi } from '../cart/CartUi.js';

/** Moves focus to the new page's heading after a client-side navigation (not on first load). */
function useFocusOnNavigate() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }, [pathname]);
}

// The signed-in menu (Radix dropdown and its positioning) loads only for members.
const MemberMenu = lazy(() => import('./MemberMenu.js'));

function AccountMenu() {
  const signedIn = useSignedIn();
  const location = useLocation();
  if (!signedIn) {
    const back = location.pathname.startsWith('/auth') ? '' : `?returnTo=${encodeURIComponent(location.pathname + location.search)}`;
    return <Link className="header-link" to={`/auth/sign-in${back}`}>Sign in</Link>;
  }
  return <Suspense fallback={<span className="header-link" aria-hidden="true"><span className="avatar" /></span>}><MemberMenu /></Suspense>;
}

function CartButton() {
  const { openCart } = useCartUi();
  const cart = useCart();
  const count = cartCount(cart.data);
  return (
    <button type="button" className="cart-button" onClick={openCart} aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}`}>
      <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8"><path d="M5 7h14l-1.2 12.1a2 2 0 0 1-2 1.9H8.2a2 2 0 0 1-2-1.9Z" /><path d="M9 7V6a3 3 0 0 1 6 0v1" /></svg>
      {count > 0 && <span className="cart-count" aria-hidden="true">{count}</span>}
    </button>
  );
}

export function Layout() {
  const { site } = useShop();
  useFocusOnNavigate();
  // Browser tests (and curious people) can tell when the page has become interactive.
  useEffect(() => { document.documentElement.dataset.hydrated = 'true'; }, []);
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="site-header">
        <div className="container header-row">
          <Link to="/" className="brand">{site.name}</Link>
          <nav aria-label="Main" className="main-nav">
            <NavLink to="/products" end>Shop all</NavLink>
          </nav>
          <SearchBox />
          <div className="header-actions">
            <AccountMenu />
            <CartButton />
          </div>
        </div>
      </header>
      <main id="main" className="site-main">
        <Outlet />
      </main>
      <footer className="site-footer">
        <div className="container footer-row">
          <p><strong>{site.name}</strong> · Small-batch goods, shipped with care.</p>
          <nav aria-label="Footer">
            <Link to="/products">Shop</Link>
            <Link to="/cart">Cart</Link>
            <Link to="/gift-cards/balance">Gift card balance</Link>
            <Link to="/account">Account</Link>
          </nav>
        </div>
      </footer>
    </>
  );
}
