import { describe, expect, it } from 'vitest';
import { isExternal, resolveTo } from './history.js';
import { matchRoutes, type RouteObject } from './match.js';

const table: RouteObject[] = [
  {
    id: 'admin',
    path: 'admin',
    children: [
      { id: 'dashboard', index: true },
      { id: 'new-product', path: 'products/new' },
      { id: 'product', path: 'products/:productId' },
      { id: 'admin-missing', path: '*' },
    ],
  },
  {
    id: 'root',
    children: [
      { id: 'home', index: true },
      { id: 'listing', path: 'products' },
      { id: 'product-page', path: 'products/:slug' },
      { id: 'account', path: 'account', children: [{ id: 'profile', index: true }, { id: 'order', path: 'orders/:orderId' }] },
      { id: 'auth', path: 'auth', children: [{ id: 'sign-in', path: 'sign-in' }] },
      { id: 'missing', path: '*' },
    ],
  },
];

const ids = (pathname: string) => matchRoutes(table, pathname)?.map((match) => match.route.id);
const params = (pathname: string) => matchRoutes(table, pathname)?.at(-1)?.params;

describe('matchRoutes', () => {
  it('matches the chain of routes down to the page, layouts first', () => {
    expect(ids('/')).toEqual(['root', 'home']);
    expect(ids('/products')).toEqual(['root', 'listing']);
    expect(ids('/account')).toEqual(['root', 'account', 'profile']);
    expect(ids('/admin')).toEqual(['admin', 'dashboard']);
  });

  it('prefers the static path listed before a :param sibling, and reads params decoded', () => {
    expect(ids('/admin/products/new')).toEqual(['admin', 'new-product']);
    expect(ids('/admin/products/p-1')).toEqual(['admin', 'product']);
    expect(params('/products/caf%C3%A9-mug')).toEqual({ slug: 'café-mug' });
    expect(params('/account/orders/o%2F1')).toEqual({ orderId: 'o/1' });
  });

  it('ignores a trailing slash and the case of static segments', () => {
    expect(ids('/products/')).toEqual(['root', 'listing']);
    expect(ids('/Products')).toEqual(['root', 'listing']);
  });

  it('sends what nothing else matches to the nearest catch-all, with the rest of the path', () => {
    expect(ids('/admin/nowhere/at-all')).toEqual(['admin', 'admin-missing']);
    expect(params('/admin/nowhere/at-all')).toEqual({ '*': 'nowhere/at-all' });
    expect(ids('/account/nowhere')).toEqual(['root', 'missing']);
    expect(ids('/products/a/b')).toEqual(['root', 'missing']);
    expect(ids('/administrator')).toEqual(['root', 'missing']);
  });

  it('matches a layout route alone where the URL ends at its path', () => {
    expect(ids('/auth')).toEqual(['root', 'auth']);
    expect(ids('/auth/sign-in')).toEqual(['root', 'auth', 'sign-in']);
  });

  it('matches nothing when no route catches the URL', () => {
    expect(matchRoutes([{ path: 'only' }], '/other')).toBeNull();
  });
});

describe('resolveTo', () => {
  const here = { pathname: '/products', search: '?page=2' };
  it('keeps absolute paths and reads query-only and fragment-only targets against the current page', () => {
    expect(resolveTo('/cart?x=1#y', here)).toBe('/cart?x=1#y');
    expect(resolveTo('?collection=mugs', here)).toBe('/products?collection=mugs');
    expect(resolveTo('#reviews', here)).toBe('/products?page=2#reviews');
    expect(resolveTo('', here)).toBe('/products?page=2');
  });

  it('reads a relative path below the current page and leaves other origins alone', () => {
    expect(resolveTo('orders', { pathname: '/account', search: '' })).toBe('/account/orders');
    expect(resolveTo('https://pay.example/x', here)).toBe('https://pay.example/x');
    expect(isExternal(resolveTo('https://pay.example/x', here))).toBe(true);
    expect(isExternal(resolveTo('//cdn.example/x', here))).toBe(true);
    expect(isExternal('/cart')).toBe(false);
  });
});
