import { lazy, Suspense, useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigationType } from '../router/Router.js';
import { scrollPositions } from '../router/history.js';
import { cartCount, useCart } from '../cart/queries.js';
import { useShop } from '../shop/context.js';
import { useSignedIn } from '../shop/member.js';
import { SearchBox } from '../search/SearchBox.js';
import { useCartUi } from '../cart/CartUi.js';

/**
 * After a client-side navigation (not on first load): back/forward returns to where the shopper
 * was on that page; a new page starts at the top with focus on its heading, for screen readers.
 */
function useFocusOnNavigate() {
  const { pathname, key } = useLocation();
  const type = useNavigationType();
  const first = useRef(true);
  const lastPath = useRef(pathname);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const pageChanged = lastPath.current !== pathname;
    lastPath.current = pathname;
    const saved = type === 'POP' ? scrollPositions.get(key) : undefined;
    if (saved !== undefined) window.scrollTo(0, saved);
    else if (pageChanged) window.scrollTo(0, 0);
    if (!pageChanged) return;
    // A page whose data is still loading shows its heading later: focus it when it appears,
    // unless the shopper has moved focus meanwhile.
    const before = document.activeElement;
    const focusHeading = () => {
      const heading = document.querySelector<HTMLElement>('main h1');
      if (!heading) return false;
      const active = document.activeElement;
      if (!active || active === before || active === document.body || !active.isConnected) {
        heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [pathname, key, type]);
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
