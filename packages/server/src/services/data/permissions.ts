/**
 * Collection permissions, pure: for each operation the lowest role that may perform it
 * (ANYONE < SITE_MEMBER < SITE_MEMBER_AUTHOR < ADMIN). Back-office callers (WIX_USER) and API keys
 * (APP) are admins. Under SITE_MEMBER_AUTHOR a member reads, updates and removes only the items
 * they own (`_owner`) and may insert, becoming the owner.
 */
import type { Caller } from '../../platform/caller.js';
import { dataError } from './errors.js';
import { isPlainObject } from './wire-values.js';

export const ROLES = ['ANYONE', 'SITE_MEMBER', 'SITE_MEMBER_AUTHOR', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];
export const OPERATIONS = ['read', 'insert', 'update', 'remove'] as const;
export type Operation = (typeof OPERATIONS)[number];
export type Permissions = Record<Operation, Role>;

/** The official API's defaults: reading by authors, writing by admins. */
export const DEFAULT_PERMISSIONS: Permissions = {
  read: 'SITE_MEMBER_AUTHOR',
  insert: 'ADMIN',
  update: 'ADMIN',
  remove: 'ADMIN',
};

export type Access =
  | { kind: 'all' }
  /** Only items whose `_owner` is this subject. */
  | { kind: 'own'; ownerId: string }
  | { kind: 'denied' };

const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

export function accessFor(permissions: Permissions, operation: Operation, caller: Pick<Caller, 'kind' | 'subjectId'>): Access {
  if (caller.kind === 'WIX_USER' || caller.kind === 'APP') return { kind: 'all' };
  const role = permissions[operation];
  if (role === 'ANYONE') return { kind: 'all' };
  if (caller.kind !== 'MEMBER' || role === 'ADMIN') return { kind: 'denied' };
  if (role === 'SITE_MEMBER' || operation === 'insert') return { kind: 'all' };
  return { kind: 'own', ownerId: caller.subjectId };
}

/** The wire filter that limits an access to the items it covers; undefined when it covers all. */
export function restrictionOf(access: Access): Record<string, unknown> | undefined {
  return access.kind === 'own' ? { _owner: access.ownerId } : undefined;
}

/** Reads `permissions` of a collection definition; absent operations take the defaults. */
export function readPermissions(wire: unknown, base: Permissions = DEFAULT_PERMISSIONS): Permissions {
  if (wire === undefined || wire === null) return { ...base };
  if (!isPlainObject(wire)) throw invalid(`permissions should be an object with ${OPERATIONS.join(', ')}.`);
  const permissions = { ...base };
  for (const [key, value] of Object.entries(wire)) {
    if (!(OPERATIONS as readonly string[]).includes(key)) throw invalid(`Unknown permission [${key}]: use ${OPERATIONS.join(', ')}.`);
    if (value === undefined || value === null) continue;
    if (!isRole(value)) throw invalid(`Permission ${key} should be one of ${ROLES.join(', ')}. Got [${String(value)}] instead.`);
    permissions[key as Operation] = value;
  }
  return permissions;
}

const invalid = (description: string) => dataError(400, 'WDE0910', description);
