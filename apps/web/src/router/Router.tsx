import {
  createContext, startTransition, useCallback, useContext, useEffect, useMemo, useState,
  type AnchorHTMLAttributes, type MouseEvent, type ReactNode,
} from 'react';
import { createBrowserHistory, createPath, isExternal, resolveTo, type BrowserHistory, type Location, type NavigateOptions, type NavigationType } from './history.js';
import { matchRoutes, type Params, type RouteMatch, type RouteObject } from './match.js';

/*
 * The app's router, about 2 KB gzip where React Router's declarative mode cost 13 KB of every
 * page's first load. It offers what the pages use: <BrowserRouter>/<StaticRouter>, useRoutes and
 * <Outlet>, <Link>/<NavLink>, useNavigate, useLocation, useParams, useSearchParams. A navigation
 * renders inside a transition, so a page whose bundle is still loading keeps the current one on
 * screen until it is ready (routes.tsx).
 */

interface RouterState {
  location: Location;
  type: NavigationType;
  navigate: (to: string, options?: NavigateOptions) => void;
  /** The location as of now (ahead of `location` while a transition renders). */
  latest: () => Location;
}

const RouterContext = createContext<RouterState | null>(null);
const RouteContext = createContext<{ matches: RouteMatch[]; depth: number }>({ matches: [], depth: -1 });

function useRouter(): RouterState {
  const router = useContext(RouterContext);
  if (!router) throw new Error('a router hook was used outside <BrowserRouter> or <StaticRouter>');
  return router;
}

let browserHistory: BrowserHistory | undefined;

export function BrowserRouter({ children }: { children: ReactNode }) {
  const history = (browserHistory ??= createBrowserHistory());
  const [state, setState] = useState<{ location: Location; type: NavigationType }>(() => ({ location: history.location, type: 'POP' }));
  useEffect(() => history.listen((location, type) => startTransition(() => setState({ location, type }))), [history]);
  const navigate = useCallback((to: string, options?: NavigateOptions) => history.navigate(to, options), [history]);
  const latest = useCallback(() => history.location, [history]);
  const value = useMemo(() => ({ ...state, navigate, latest }), [state, navigate, latest]);
  return <RouterContext value={value}>{children}</RouterContext>;
}

/** The server's router: one location for the whole render; navigating is not possible there. */
export function StaticRouter({ location: path, children }: { location: string; children: ReactNode }) {
  const value = useMemo(() => {
    const url = new URL(path, 'http://relative.invalid');
    const location = { pathname: url.pathname, search: url.search, hash: url.hash, state: null, key: 'default' };
    return { location, type: 'POP' as const, navigate: () => undefined, latest: () => location };
  }, [path]);
  return <RouterContext value={value}>{children}</RouterContext>;
}

function Rendered({ matches, depth }: { matches: RouteMatch[]; depth: number }) {
  const match = matches[depth];
  if (!match) return null;
  return <RouteContext value={{ matches, depth }}>{match.route.element ?? <Outlet />}</RouteContext>;
}

/** The element of the routes the current URL matches (nothing when none does). */
export function useRoutes(routes: RouteObject[]): ReactNode {
  const { pathname } = useRouter().location;
  const matches = useMemo(() => matchRoutes(routes, pathname), [routes, pathname]);
  return matches ? <Rendered matches={matches} depth={0} /> : null;
}

/** Where a layout route shows the route below it. */
export function Outlet() {
  const { matches, depth } = useContext(RouteContext);
  return <Rendered matches={matches} depth={depth + 1} />;
}

export const useLocation = (): Location => useRouter().location;
export const useNavigationType = (): NavigationType => useRouter().type;
export const useNavigate = () => useRouter().navigate;

export function useParams(): Params {
  const { matches, depth } = useContext(RouteContext);
  return matches[depth]?.params ?? {};
}

type SearchInit = string | URLSearchParams | Record<string, string | string[]> | [string, string][];

function toSearchParams(init: SearchInit): URLSearchParams {
  if (typeof init === 'string' || init instanceof URLSearchParams || Array.isArray(init)) return new URLSearchParams(init);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(init)) {
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, one);
  }
  return params;
}

/** The query string as URLSearchParams and a setter that navigates to the same path with a new one. */
export function useSearchParams(): [URLSearchParams, (next: SearchInit | ((current: URLSearchParams) => SearchInit), options?: NavigateOptions) => void] {
  const { location, navigate, latest } = useRouter();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const set = useCallback((next: SearchInit | ((current: URLSearchParams) => SearchInit), options?: NavigateOptions) => {
    const value = typeof next === 'function' ? next(new URLSearchParams(latest().search)) : next;
    const search = toSearchParams(value).toString();
    navigate(`${latest().pathname}${search ? `?${search}` : ''}`, options);
  }, [navigate, latest]);
  return [params, set];
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  replace?: boolean;
  state?: unknown;
}

const isPlainClick = (event: MouseEvent<HTMLAnchorElement>, target?: string) =>
  !event.defaultPrevented && event.button === 0 && (!target || target === '_self') &&
  !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;

/** An <a> whose plain clicks navigate in the page; modified clicks (new tab…) stay the browser's. */
export function Link({ to, replace, state, onClick, target, ...rest }: LinkProps) {
  const { location, navigate } = useRouter();
  const href = resolveTo(to, location);
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (isExternal(href) || !isPlainClick(event, target)) return;
    event.preventDefault();
    navigate(href, { replace, state });
  };
  return <a {...rest} href={href} target={target} onClick={handle} />;
}

/** A Link marked aria-current="page" (and class "active") while the URL is its path or, without `end`, below it. */
export function NavLink({ end, className, ...props }: LinkProps & { end?: boolean }) {
  const { location } = useRouter();
  const path = new URL(resolveTo(props.to, location), 'http://relative.invalid').pathname.replace(/(.)\/$/, '$1').toLowerCase();
  const here = location.pathname.replace(/(.)\/$/, '$1').toLowerCase();
  const active = here === path || (!end && path !== '/' && here.startsWith(`${path}/`));
  const classes = [className, active ? 'active' : ''].filter(Boolean).join(' ') || undefined;
  return <Link {...props} className={classes} aria-current={active ? 'page' : undefined} />;
}

export { createPath, matchRoutes };
export type { Location, NavigateOptions, RouteObject };
