// The role matrix: who may make which call, in one table. A route names its permission in
// `config.access`; the caller check (caller.ts) admits a caller only when the matrix lists the
// caller's actor for that permission. A route without `access` is public (sign-in pages, the
// OAuth token endpoint, the storefront's pages). The README's role matrix is generated from this
// table and the routes (access-matrix.test.ts keeps it in sync).
/** Who is calling, as the matrix knows them: the member's role is the one their row has now. */
export type Actor = 'OWNER' | 'CONTRIBUTOR' | 'MEMBER' | 'VISITOR' | 'API_KEY';
export const ACTORS: readonly Actor[] = ['OWNER', 'CONTRIBUTOR', 'MEMBER', 'VISITOR', 'API_KEY'];

/**
 * What a route requires. Name the narrowest that fits; add a row here (and nowhere else) for a
 * new kind of call.
 */
export const PERMISSIONS = {
  /** The shop with any token: catalog reads, carts, checkout, sign-in calls, data items (each collection's own permissions decide further). */
  shop: { actors: ['OWNER', 'CONTRIBUTOR', 'MEMBER', 'VISITOR', 'API_KEY'], about: 'storefront calls with any token' },
  /** Asking about oneself, signed in or not (the answer has no member for a visitor). */
  'self-or-visitor': { actors: ['OWNER', 'CONTRIBUTOR', 'MEMBER', 'VISITOR'], about: 'the caller\'s own member, if any' },
  /** A signed-in member acting as themself, whatever their role. */
  self: { actors: ['OWNER', 'CONTRIBUTOR', 'MEMBER'], about: 'a signed-in member\'s own data' },
  /** A member's own data, or anyone's by the back office. */
  'self-or-staff': { actors: ['OWNER', 'CONTRIBUTOR', 'MEMBER', 'API_KEY'], about: 'a member\'s own data, or the back office on any member' },
  /** Running the shop: catalog, orders, members, coupons, data collections, imports, exports, the dashboard. */
  staff: { actors: ['OWNER', 'CONTRIBUTOR', 'API_KEY'], about: 'catalog, orders, members, coupons, data, imports and exports' },
  /** Access and money: domains and site settings, webhooks, API keys, roles, payment settings, the audit log. */
  owner: { actors: ['OWNER', 'API_KEY'], about: 'domains and site settings, webhooks, API keys, roles, payment settings, audit log' },
} as const satisfies Record<string, { actors: readonly Actor[]; about: string }>;

export type Permission = keyof typeof PERMISSIONS;

export function admits(permission: Permission, actor: Actor): boolean {
  return (PERMISSIONS[permission].actors as readonly Actor[]).includes(actor);
}

/** One route as the matrix sees it (collected as routes are added). */
export interface RouteAccess {
  method: string;
  url: string;
  /** Undefined: a public route. */
  access: Permission | undefined;
}
