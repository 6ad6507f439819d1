import { Link } from '../router/Router.js';
import { CartUiProvider } from '../cart/CartUi.js';
import { Layout } from './Layout.js';

export function Root() {
  return (
    <CartUiProvider>
      <Layout />
    </CartUiProvider>
  );
}

/** A page that failed to load or render (routes.tsx's boundary): say so plainly and offer a way on. */
export function RouteError() {
  return (
    <main id="main" className="container narrow state">
      <h1>This page didn’t load</h1>
      <p>Check your connection and reload the page. If it keeps happening, try again in a few minutes.</p>
      <p><button type="button" className="button" onClick={() => window.location.reload()}>Reload</button> <Link className="button secondary" to="/">Home</Link></p>
    </main>
  );
}
