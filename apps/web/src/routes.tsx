import type { RouteObject } from 'react-router';
import { Root, RouteError } from './shell/Root.js';

type Page = Promise<{ default: React.ComponentType }>;
/** Each page is its own bundle, loaded when its route is first visited. */
const page = (load: () => Page) => async () => ({ Component: (await load()).default });

export const NOT_FOUND_ROUTE_ID = 'not-found';

// The back office: its own layout (no shop header) and bundles, loaded only under /admin.
const admin: RouteObject = {
  id: 'admin',
  path: 'admin',
  lazy: page(() => import('./admin/AdminLayout.js')),
  errorElement: <RouteError />,
  children: [
    { index: true, lazy: page(() => import('./admin/DashboardPage.js')) },
    { path: 'orders', lazy: page(() => import('./admin/orders/OrdersPage.js')) },
    { path: 'orders/:orderId', lazy: page(() => import('./admin/orders/OrderDetailPage.js')) },
    { path: 'products', lazy: page(() => import('./admin/products/ProductsPage.js')) },
    { path: 'products/collections', lazy: page(() => import('./admin/products/CollectionsPage.js')) },
    { path: 'products/new', lazy: page(() => import('./admin/products/ProductEditPage.js')) },
    { path: 'products/:productId', lazy: page(() => import('./admin/products/ProductEditPage.js')) },
    { path: 'members', lazy: page(() => import('./admin/members/MembersPage.js')) },
    { path: 'reviews', lazy: page(() => import('./admin/reviews/ReviewsPage.js')) },
    { path: 'gift-cards', lazy: page(() => import('./admin/gift-cards/GiftCardsPage.js')) },
    { path: 'data', lazy: page(() => import('./admin/data/CollectionsPage.js')) },
    { path: 'data/:collectionId', lazy: page(() => import('./admin/data/CollectionPage.js')) },
    { path: 'import-export', lazy: page(() => import('./admin/ImportExportPage.js')) },
    { path: 'settings', lazy: page(() => import('./admin/settings/StorePage.js')) },
    { path: 'settings/commerce', lazy: page(() => import('./admin/settings/CommercePage.js')) },
    { path: 'settings/coupons', lazy: page(() => import('./admin/settings/CouponsPage.js')) },
    { path: 'settings/payments', lazy: page(() => import('./admin/settings/PaymentsPage.js')) },
    { path: 'settings/api-keys', lazy: page(() => import('./admin/settings/ApiKeysPage.js')) },
    { path: 'settings/mail', lazy: page(() => import('./admin/settings/MailPage.js')) },
    { path: 'settings/webhooks', lazy: page(() => import('./admin/settings/WebhooksPage.js')) },
    { path: 'settings/audit-log', lazy: page(() => import('./admin/audit/AuditLogPage.js')) },
    { path: '*', lazy: page(() => import('./admin/NotFoundPage.js')) },
  ],
};

export const routes: RouteObject[] = [
  admin,
  {
    id: 'root',
    element: <Root />,
    errorElement: <RouteError />,
    children: [
      { index: true, lazy: page(() => import('./storefront/HomePage.js')) },
      { path: 'products', lazy: page(() => import('./storefront/ListingPage.js')) },
      { path: 'products/:slug', lazy: page(() => import('./storefront/ProductPage.js')) },
      { path: 'search', lazy: page(() => import('./search/SearchPage.js')) },
      { path: 'cart', lazy: page(() => import('./cart/CartPage.js')) },
      { path: 'checkout', lazy: page(() => import('./checkout/CheckoutPage.js')) },
      { path: 'checkout/thank-you', lazy: page(() => import('./checkout/ThankYouPage.js')) },
      { path: 'gift-cards/balance', lazy: page(() => import('./gift-cards/BalancePage.js')) },
      {
        path: 'account',
        lazy: page(() => import('./account/AccountLayout.js')),
        children: [
          { index: true, lazy: page(() => import('./account/ProfilePage.js')) },
          { path: 'orders', lazy: page(() => import('./account/OrdersPage.js')) },
          { path: 'orders/:orderId', lazy: page(() => import('./account/OrderDetailPage.js')) },
          { path: 'addresses', lazy: page(() => import('./account/AddressesPage.js')) },
          { path: 'gift-cards', lazy: page(() => import('./gift-cards/AccountGiftCardsPage.js')) },
          { path: 'bookings', lazy: page(() => import('./account/EmptySectionPage.js')) },
          { path: 'subscriptions', lazy: page(() => import('./account/EmptySectionPage.js')) },
          { path: 'events', lazy: page(() => import('./account/EmptySectionPage.js')) },
        ],
      },
      {
        path: 'auth',
        lazy: page(() => import('./auth/AuthLayout.js')),
        children: [
          { path: 'sign-in', lazy: page(() => import('./auth/SignInPage.js')) },
          { path: 'register', lazy: page(() => import('./auth/RegisterPage.js')) },
          { path: 'verify', lazy: page(() => import('./auth/VerifyPage.js')) },
          { path: 'forgot-password', lazy: page(() => import('./auth/ForgotPasswordPage.js')) },
          { path: 'reset-password', lazy: page(() => import('./auth/ResetPasswordPage.js')) },
        ],
      },
      { id: NOT_FOUND_ROUTE_ID, path: '*', lazy: page(() => import('./shell/NotFound.js')) },
    ],
  },
];
