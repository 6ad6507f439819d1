import { useEffect, useMemo, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from '../router/Router.js';
import { BodegaError } from '@bodega/sdk';
import { useHydrated, useShop } from '../shop/context.js';
import { useSignedIn, useSignOut } from '../shop/member.js';
import { ErrorState, Loading } from '../ui/States.js';
import { usePageTitle } from '../ui/usePageTitle.js';
import { adminClient } from './client.js';
import { AdminContext, useAdmin, type Admin } from './context.js';
import { CommandPalette, ShortcutHelp, useShortcuts } from './CommandPalette.js';
import { NAV } from './nav.js';
import { useBackOfficeMe, useForgetBackOffice } from './queries.js';
import { EnrolmentGate } from './security/EnrolmentGate.js';
import './admin.css';

/** Focus the new page's heading after a client-side navigation, as the shop does. */
function useFocusHeading() {
  const { pathname } = useLocation();
  const [first, setFirst] = useState(true);
  useEffect(() => {
    if (first) {
      setFirst(false);
      return;
    }
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }, [pathname]);
}

function Gate({ title, children }: { title: string; children: React.ReactNode }) {
  usePageTitle(title);
  return (
    <main id="main" className="admin-gate">
      <div className="auth-card">
        <p className="eyebrow">Back office</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

export default function AdminLayout() {
  const hydrated = useHydrated();
  const signedIn = useSignedIn();
  const { site } = useShop();
  const signOut = useSignOut();
  const forget = useForgetBackOffice();
  const location = useLocation();
  const api = useMemo(() => (hydrated ? adminClient(site.clientId) : undefined), [hydrated, site.clientId]);
  const me = useBackOfficeMe(api, signedIn);
  useEffect(() => { document.documentElement.dataset.hydrated = 'true'; }, []);

  if (!hydrated || !api || (signedIn && me.isPending)) return <main id="main" className="admin-gate"><Loading label="Opening the back office…" page /></main>;
  const back = `/auth/sign-in?returnTo=${encodeURIComponent(location.pathname + location.search)}`;
  if (!signedIn) {
    return (
      <Gate title="Sign in to the back office">
        <p>The back office is for the store’s owner and contributors. Sign in with your store account.</p>
        <p><Link className="button block" to={back}>Sign in</Link></p>
        <p className="small"><Link to="/">Back to the shop</Link></p>
      </Gate>
    );
  }
  if (me.isError && me.error instanceof BodegaError && me.error.code === 'SECOND_FACTOR_REQUIRED') {
    return <EnrolmentGate onDone={() => void me.refetch()} signOut={() => void signOut().then(forget)} />;
  }
  if (me.isError) {
    const refused = me.error instanceof BodegaError && (me.error.status === 403 || me.error.status === 401);
    if (!refused) return <main id="main" className="admin-gate"><ErrorState error={me.error} retry={() => void me.refetch()} /></main>;
    return (
      <Gate title="This account can’t open the back office">
        <p>You are signed in as a shopper. Only the store’s owner and its contributors can manage the store here.</p>
        <p>If you run this store, sign out and sign in with the owner’s account; the owner can make you a contributor from Members.</p>
        <p className="actions">
          <button type="button" className="button" onClick={() => void signOut().then(forget)}>Sign out</button>
          <Link className="button secondary" to="/">Back to the shop</Link>
        </p>
      </Gate>
    );
  }
  if (!me.data) return <main id="main" className="admin-gate"><Loading label="Opening the back office…" page /></main>;
  const admin: Admin = { api, me: me.data, currency: me.data.site.currency || site.currency };
  return (
    <AdminContext.Provider value={admin}>
      <Shell />
    </AdminContext.Provider>
  );
}

function Shell() {
  const [menuOpen, setMenuOpen] = useState(false);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const forget = useForgetBackOffice();
  useFocusHeading();
  useEffect(() => setMenuOpen(false), [pathname]);
  useShortcuts({ openPalette: () => setPaletteOpen(true), openHelp: () => setHelpOpen(true) });
  return (
    <AdminFrame menuOpen={menuOpen} setMenuOpen={setMenuOpen} openPalette={() => setPaletteOpen(true)} openHelp={() => setHelpOpen(true)}
      signOut={() => void signOut().then(() => { forget(); navigate('/'); })}>
      <Outlet />
      <CommandPalette open={paletteOpen} onOpenChange={setPaletteOpen} />
      <ShortcutHelp open={helpOpen} onOpenChange={setHelpOpen} />
    </AdminFrame>
  );
}

function AdminFrame({ children, menuOpen, setMenuOpen, openPalette, openHelp, signOut }: {
  children: React.ReactNode; menuOpen: boolean; setMenuOpen: (open: boolean) => void; openPalette: () => void; openHelp: () => void; signOut: () => void;
}) {
  const { me } = useAdmin();
  return (
    <div className="admin">
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="admin-top">
        <button type="button" className="icon-button admin-menu-button" aria-expanded={menuOpen} aria-controls="admin-nav" onClick={() => setMenuOpen(!menuOpen)}>
          <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2"><path d="M4 7h16M4 12h16M4 17h16" /></svg>
          <span className="visually-hidden">Menu</span>
        </button>
        <Link to="/admin" className="admin-brand">{me.site.name}<span className="admin-brand-tag">Back office</span></Link>
        <button type="button" className="palette-button" onClick={openPalette}>
          <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2"><circle cx="11" cy="11" r="7" /><path d="m20 20-3.5-3.5" /></svg>
          <span>Jump to…</span><kbd>Ctrl K</kbd>
        </button>
        <div className="admin-top-actions">
          <button type="button" className="link" onClick={openHelp}>Shortcuts</button>
          <span className="admin-who small" title={me.email}>{me.email ?? 'API key'} · <span className="role">{me.role === 'OWNER' ? 'Owner' : me.role === 'CONTRIBUTOR' ? 'Contributor' : 'App'}</span></span>
          <Link className="link" to="/admin/security">Security</Link>
          <Link className="link" to="/">View shop</Link>
          <button type="button" className="link" onClick={signOut}>Sign out</button>
        </div>
      </header>
      <div className="admin-body">
        <nav id="admin-nav" aria-label="Back office" className={`admin-nav ${menuOpen ? 'open' : ''}`}>
          <ul role="list">
            {NAV.map((item) => (
              <li key={item.to}><NavLink to={item.to} end={item.to === '/admin'}>{item.label}<span className="nav-key" aria-hidden="true">g {item.key}</span></NavLink></li>
            ))}
          </ul>
        </nav>
        <main id="main" className="admin-main">{children}</main>
      </div>
    </div>
  );
}
