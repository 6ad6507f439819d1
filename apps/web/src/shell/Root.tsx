import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { CartUiProvider } from '../cart/CartUi.js';
import { Layout } from './Layout.js';

export function Root() {
  return (
    <CartUiProvider>
      <Layout />
    </CartUiProvider>
  );
}

/** A page that failed to load or render: say so plainly and offer a way on. */
export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main id="main" className="container narrow state">
      <h1>{notFound ? 'We can’t find that page' : 'This page didn’t load'}</h1>
      <p>{notFound ? 'It may have moved.' : 'Check your connection and reload the page. If it keeps happening, try again in a few minutes.'}</p>
      <p><button type="button" className="button" onClick={() => window.location.reload()}>Reload</button> <Link className="button secondary" to="/">Home</Link></p>
    </main>
  );
}
