import { Link, NavLink, Outlet, useLocation } from '../router/Router.js';
import { useHydrated } from '../shop/context.js';
import { useCurrentMember, useSignedIn } from '../shop/member.js';
import { ErrorState, Loading } from '../ui/States.js';

const SECTIONS = [
  ['/account', 'Profile'],
  ['/account/orders', 'Orders'],
  ['/account/addresses', 'Addresses'],
  ['/account/security', 'Security'],
  ['/account/gift-cards', 'Gift cards'],
  ['/account/downloads', 'Downloads'],
  ['/account/bookings', 'Bookings'],
  ['/account/subscriptions', 'Subscriptions'],
  ['/account/events', 'Events'],
] as const;

export default function AccountLayout() {
  const hydrated = useHydrated();
  const signedIn = useSignedIn();
  const member = useCurrentMember();
  const location = useLocation();
  let body;
  if (!hydrated || (signedIn && member.isPending)) body = <Loading label="Loading your account…" page />;
  else if (!signedIn) {
    body = (
      <div className="state">
        <h1>Your account</h1>
        <p>Sign in to see your orders, addresses and profile.</p>
        <p><Link className="button" to={`/auth/sign-in?returnTo=${encodeURIComponent(location.pathname)}`}>Sign in</Link> <Link className="button secondary" to={`/auth/register?returnTo=${encodeURIComponent(location.pathname)}`}>Create an account</Link></p>
      </div>
    );
  } else if (member.isError) body = <ErrorState error={member.error} retry={() => void member.refetch()} />;
  else body = <Outlet />;
  return (
    <div className="container account">
      <div className="account-layout">
        <nav aria-label="Account" className="account-nav">
          <p className="eyebrow">My account</p>
          <ul role="list">
            {SECTIONS.map(([to, label]) => <li key={to}><NavLink to={to} end>{label}</NavLink></li>)}
          </ul>
        </nav>
        <div className="account-body">{body}</div>
      </div>
    </div>
  );
}
