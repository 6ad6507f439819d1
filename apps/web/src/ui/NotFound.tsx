import { Link } from '../router/Router.js';
import { usePageTitle } from './usePageTitle.js';

/** The shop's "not found" state, for a page or for something a page looked up (a product). */
export function NotFound({ what = 'page' }: { what?: string }) {
  usePageTitle('Not found');
  return (
    <div className="container narrow state not-found">
      <p className="eyebrow">404</p>
      <h1>We can’t find that {what}</h1>
      <p>It may have moved or no longer exist. Try the shop or the search above.</p>
      <p><Link className="button" to="/products">Browse all products</Link> <Link className="button secondary" to="/">Go to the home page</Link></p>
    </div>
  );
}
