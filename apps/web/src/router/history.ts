/**
 * The browser's session history as a store: the current location, push/replace, and listeners
 * told of every change (a navigation of ours or the back/forward buttons). Each entry carries a
 * key and the state passed to navigate() in `history.state`, so both survive a reload.
 */
export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** What navigate(…, { state }) passed; null otherwise (e.g. on a first load). */
  state: unknown;
  /** Unique per history entry ('default' for the entry the app started on). */
  key: string;
}

export type NavigationType = 'POP' | 'PUSH' | 'REPLACE';

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

type Listener = (location: Location, type: NavigationType) => void;

interface Entry { key?: unknown; state?: unknown }

/** A target of a link or navigate() as a path, query and fragment, read against the current location. */
export function resolveTo(to: string, from: Pick<Location, 'pathname' | 'search'>): string {
  if (to.startsWith('/') && !to.startsWith('//')) return to;
  if (to === '') return from.pathname + from.search;
  if (to.startsWith('?')) return from.pathname + to;
  if (to.startsWith('#')) return from.pathname + from.search + to;
  const base = new URL(from.pathname.replace(/\/?$/, '/'), 'http://relative.invalid');
  const url = new URL(to, base);
  return url.origin === base.origin ? url.pathname + url.search + url.hash : url.href;
}

/** True for a target on another origin (a full page load, never a client-side navigation). */
export const isExternal = (href: string) => /^([a-z][a-z\d+.-]*:|\/\/)/i.test(href);

function splitPath(path: string): Pick<Location, 'pathname' | 'search' | 'hash'> {
  const url = new URL(path, 'http://relative.invalid');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

export const createPath = (location: Pick<Location, 'pathname' | 'search' | 'hash'>) => location.pathname + location.search + location.hash;

export interface BrowserHistory {
  readonly location: Location;
  navigate(to: string, options?: NavigateOptions): void;
  listen(listener: Listener): () => void;
}

/** Positions of the pages left behind, by history key, restored when the shopper comes back. */
export const scrollPositions = new Map<string, number>();
const MAX_SCROLL_POSITIONS = 200;

function rememberScroll(key: string): void {
  scrollPositions.delete(key);
  scrollPositions.set(key, window.scrollY);
  if (scrollPositions.size > MAX_SCROLL_POSITIONS) scrollPositions.delete(scrollPositions.keys().next().value ?? '');
}

export function createBrowserHistory(): BrowserHistory {
  const read = (): Location => {
    const entry = (window.history.state ?? {}) as Entry;
    return {
      pathname: window.location.pathname,
      search: window.location.search,
      hash: window.location.hash,
      state: entry.state ?? null,
      key: typeof entry.key === 'string' ? entry.key : 'default',
    };
  };
  let current = read();
  const listeners = new Set<Listener>();
  const tell = (type: NavigationType) => {
    for (const listener of listeners) listener(current, type);
  };
  window.history.scrollRestoration = 'manual';
  window.addEventListener('popstate', () => {
    rememberScroll(current.key);
    current = read();
    tell('POP');
  });
  return {
    get location() {
      return current;
    },
    navigate(to, options = {}) {
      const href = resolveTo(to, current);
      if (isExternal(href)) {
        window.location.assign(href);
        return;
      }
      // A link to where the shopper already is replaces the entry rather than stacking a copy.
      const replace = options.replace ?? href === createPath(current);
      const key = Math.random().toString(36).slice(2, 10);
      const entry = { key, state: options.state ?? null };
      rememberScroll(current.key);
      if (replace) window.history.replaceState(entry, '', href);
      else window.history.pushState(entry, '', href);
      current = { ...splitPath(href), state: entry.state, key };
      tell(replace ? 'REPLACE' : 'PUSH');
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
