import { useLocation } from '../router/Router.js';
import { EmptyState } from '../ui/States.js';
import { usePageTitle } from '../ui/usePageTitle.js';

const TEXT: Record<string, [string, string]> = {
  bookings: ['Bookings', 'This store does not take bookings, so there is nothing here.'],
  subscriptions: ['Subscriptions', 'You have no subscriptions with this store.'],
  events: ['Events', 'This store has no events you signed up for.'],
};

/** Sections the account has for compatibility; this store sells none of these yet. */
export default function EmptySectionPage() {
  const key = useLocation().pathname.split('/').pop() ?? '';
  const [title, text] = TEXT[key] ?? ['Account', ''];
  usePageTitle(title);
  return (
    <>
      <h1>{title}</h1>
      <EmptyState title={`No ${title.toLowerCase()}`} action={{ to: '/products', label: 'Browse the shop' }}><p>{text}</p></EmptyState>
    </>
  );
}
