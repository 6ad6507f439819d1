import { Component, Suspense, use, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { matchRoutes, useLocation, useRoutes, type RouteObject } from './router/Router.js';
import { Root, RouteError } from './shell/Root.js';

/*
 * The app's routes, rendered by our own router (router/Router.tsx: useRoutes under <BrowserRouter>
 * or <StaticRouter>). Each page is its own bundle; the server and the browser load the bundles of
 * the URL's pages before rendering (preloadPages), so the first render and the hydration are
 * synchronous. A later navigation to a page not yet loaded suspends inside a transition, so the
 * current page stays until the next one is ready.
 */

type Module = { default: ComponentType };
type Load = () => Promise<Module>;

const loaded = new Map<Load, ComponentType>();
const loading = new Map<Load, Promise<ComponentType>>();

function loadPage(load: Load): Promise<ComponentType> {
  let pending = loading.get(load);
  if (!pending) {
    // A bundle that failed stays failed until the page is reloaded (RouteError says so): were it
    // fetched again on the render that follows the failure, React's retry would loop on the network.
    pending = load().then((module) => {
      loaded.set(load, module.default);
      return module.default;
    });
    loading.set(load, pending);
  }
  return pending;
}

function LoadedPage({ load }: { load: Load }) {
  const Loaded = loaded.get(load) ?? use(loadPage(load));
  return <Loaded />;
}

/** A page in its own bundle; with `boundary`, a failure to load or render it shows RouteError in its place. */
function Page({ load, boundary }: { load: Load; boundary?: boolean }) {
  return boundary ? <Boundary><LoadedPage load={load} /></Boundary> : <LoadedPage load={load} />;
}

/** A route's element for a page in its own bundle (preloadPages finds the bundle in its props). */
const page = (load: Load, boundary?: 'boundary') => <Page load={load} boundary={boundary === 'boundary'} />;

/** Loads the bundles of every page the URL matches (before the first render on both sides). */
export async function preloadPages(pathname: string): Promise<void> {
  const loads = (matchRoutes(routes, pathname) ?? []).flatMap((match) => {
    const element = match.route.element as { props?: { load?: Load } } | undefined;
    return element?.props?.load ? [loadPage(element.props.load)] : [];
  });
  await Promise.all(loads);
}

/** True when the URL lands on the shop's catch-all "not found" page (the server answers 404). */
export function isNotFound(pathname: string): boolean {
  return (matchRoutes(routes, pathname) ?? []).some((match) => match.route.id === NOT_FOUND_ROUTE_ID);
}

/** A page that throws while rendering (or whose bundle fails to load) shows RouteError; a navigation clears it. */
class RouteBoundary extends Component<{ at: string; children: ReactNode }, { error: unknown; at: string | null }> {
  override state = { error: null as unknown, at: null as string | null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  static getDerivedStateFromProps(props: { at: string }, state: { error: unknown; at: string | null }) {
    if (state.error === null) return null;
    if (state.at === null) return { at: props.at };
    return state.at === props.at ? null : { error: null, at: null };
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }
  override render() {
    return this.state.error === null ? this.props.children : <RouteError />;
  }
}

function Boundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <RouteBoundary at={pathname}>{children}</RouteBoundary>;
}

/** The routes, rendered inside a router; the Suspense boundary holds the current page while the next loads. */
export function AppRoutes() {
  return <Suspense>{useRoutes(routes)}</Suspense>;
}

export const NOT_FOUND_ROUTE_ID = 'not-found';

// The back office: its own layout (no shop header) and bundles, loaded only under /admin.
const admin: RouteObject = {
  id: 'admin',
  path: 'admin',
  element: page(() => import('./admin/AdminLayout.js'), 'boundary'),
  children: [
    { index: true, element: page(() => import('./admin/DashboardPage.js')) },
    { path: 'orders', element: page(() => import('./admin/orders/OrdersPage.js')) },
    { path: 'orders/new', element: page(() => import('./admin/orders/NewOrderPage.js')) },
    { path: 'orders/:orderId', element: page(() => import('./admin/orders/OrderDetailPage.js')) },
    { path: 'invoices', element: page(() => import('./admin/invoices/InvoicesPage.js')) },
    { path: 'products', element: page(() => import('./admin/products/ProductsPage.js')) },
    { path: 'products/collections', element: page(() => import('./admin/products/CollectionsPage.js')) },
    { path: 'products/new', element: page(() => import('./admin/products/ProductEditPage.js')) },
    { path: 'products/:productId', element: page(() => import('./admin/products/ProductEditPage.js')) },
    { path: 'members', element: page(() => import('./admin/members/MembersPage.js')) },
    { path: 'reviews', element: page(() => import('./admin/reviews/ReviewsPage.js')) },
    { path: 'gift-cards', element: page(() => import('./admin/gift-cards/GiftCardsPage.js')) },
    { path: 'data', element: page(() => import('./admin/data/CollectionsPage.js')) },
    { path: 'data/:collectionId', element: page(() => import('./admin/data/CollectionPage.js')) },
    { path: 'import-export', element: page(() => import('./admin/ImportExportPage.js')) },
    { path: 'import-export/orders', element: page(() => import('./admin/import/OrderImportPage.js')) },
    { path: 'security', element: page(() => import('./admin/security/SecurityPage.js')) },
    { path: 'settings', element: page(() => import('./admin/settings/StorePage.js')) },
    { path: 'settings/commerce', element: page(() => import('./admin/settings/CommercePage.js')) },
    { path: 'settings/coupons', element: page(() => import('./admin/settings/CouponsPage.js')) },
    { path: 'settings/payments', element: page(() => import('./admin/settings/PaymentsPage.js')) },
    { path: 'settings/api-keys', element: page(() => import('./admin/settings/ApiKeysPage.js')) },
    { path: 'settings/mail', element: page(() => import('./admin/settings/MailPage.js')) },
    { path: 'settings/webhooks', element: page(() => import('./admin/settings/WebhooksPage.js')) },
    { path: 'settings/audit-log', element: page(() => import('./admin/audit/AuditLogPage.js')) },
    { path: '*', element: page(() => import('./admin/NotFoundPage.js')) },
  ],
};

export const routes: RouteObject[] = [
  admin,
  {
    id: 'root',
    element: <Boundary><Root /></Boundary>,
    children: [
      { index: true, element: page(() => import('./storefront/HomePage.js')) },
      { path: 'products', element: page(() => import('./storefront/ListingPage.js')) },
      { path: 'products/:slug', element: page(() => import('./storefront/ProductPage.js')) },
      { path: 'search', element: page(() => import('./search/SearchPage.js')) },
      { path: 'cart', element: page(() => import('./cart/CartPage.js')) },
      { path: 'checkout', element: page(() => import('./checkout/CheckoutPage.js')) },
      { path: 'checkout/thank-you', element: page(() => import('./checkout/ThankYouPage.js')) },
      { path: 'pay/:token', element: page(() => import('./pay/PayPage.js')) },
      { path: 'gift-cards/balance', element: page(() => import('./gift-cards/BalancePage.js')) },
      { path: 'downloads', element: page(() => import('./downloads/GuestDownloadsPage.js')) },
      {
        path: 'account',
        element: page(() => import('./account/AccountLayout.js')),
        children: [
          { index: true, element: page(() => import('./account/ProfilePage.js')) },
          { path: 'orders', element: page(() => import('./account/OrdersPage.js')) },
          { path: 'orders/:orderId', element: page(() => import('./account/OrderDetailPage.js')) },
          { path: 'addresses', element: page(() => import('./account/AddressesPage.js')) },
          { path: 'security', element: page(() => import('./account/SecurityPage.js')) },
          { path: 'gift-cards', element: page(() => import('./gift-cards/AccountGiftCardsPage.js')) },
          { path: 'downloads', element: page(() => import('./downloads/AccountDownloadsPage.js')) },
          { path: 'bookings', element: page(() => import('./account/EmptySectionPage.js')) },
          { path: 'subscriptions', element: page(() => import('./account/EmptySectionPage.js')) },
          { path: 'events', element: page(() => import('./account/EmptySectionPage.js')) },
        ],
      },
      {
        path: 'auth',
        element: page(() => import('./auth/AuthLayout.js')),
        children: [
          { path: 'sign-in', element: page(() => import('./auth/SignInPage.js')) },
          { path: 'register', element: page(() => import('./auth/RegisterPage.js')) },
          { path: 'verify', element: page(() => import('./auth/VerifyPage.js')) },
          { path: 'second-factor', element: page(() => import('./auth/SecondFactorPage.js')) },
          { path: 'forgot-password', element: page(() => import('./auth/ForgotPasswordPage.js')) },
          { path: 'reset-password', element: page(() => import('./auth/ResetPasswordPage.js')) },
        ],
      },
      { id: NOT_FOUND_ROUTE_ID, path: '*', element: page(() => import('./shell/NotFound.js')) },
    ],
  },
];
