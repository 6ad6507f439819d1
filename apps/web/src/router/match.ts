import type { ReactNode } from 'react';

/**
 * The route table's shape and its matcher. A URL matches the first route, in table order, that
 * consumes every segment: static segments compare case-insensitively, `:name` takes one segment
 * (decoded), `*` takes the rest. A route with children matches through one of them, or alone
 * when the URL ends at its own path; a pathless route (a layout) matches only through a child.
 * The table lists a static path before a `:param` sibling and `*` last, so order is the ranking.
 */
export interface RouteObject {
  id?: string;
  path?: string;
  index?: boolean;
  element?: ReactNode;
  children?: RouteObject[];
}

export type Params = Readonly<Record<string, string>>;

export interface RouteMatch {
  route: RouteObject;
  /** The params of this route and the routes above it. */
  params: Params;
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function matchIn(routes: RouteObject[], rest: string[], params: Params): RouteMatch[] | null {
  for (const route of routes) {
    const found = matchRoute(route, rest, params);
    if (found) return found;
  }
  return null;
}

function matchRoute(route: RouteObject, rest: string[], params: Params): RouteMatch[] | null {
  if (route.index) return rest.length === 0 ? [{ route, params }] : null;
  const own: Record<string, string> = { ...params };
  let at = 0;
  for (const segment of segmentsOf(route.path ?? '')) {
    if (segment === '*') {
      own['*'] = rest.slice(at).map(decode).join('/');
      at = rest.length;
      break;
    }
    const part = rest[at];
    if (part === undefined) return null;
    if (segment.startsWith(':')) own[segment.slice(1)] = decode(part);
    else if (segment.toLowerCase() !== decode(part).toLowerCase()) return null;
    at += 1;
  }
  const remaining = rest.slice(at);
  if (route.children?.length) {
    const below = matchIn(route.children, remaining, own);
    if (below) return [{ route, params: own }, ...below];
  }
  return remaining.length === 0 && route.path !== undefined ? [{ route, params: own }] : null;
}

/** The chain of routes (outermost first) the pathname matches, or null. */
export function matchRoutes(routes: RouteObject[], pathname: string): RouteMatch[] | null {
  return matchIn(routes, segmentsOf(pathname), {});
}
