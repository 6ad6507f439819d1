/** Data-collection roles, lowest first, and how the back office names them. */
export const ROLES = ['ANYONE', 'SITE_MEMBER', 'SITE_MEMBER_AUTHOR', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];
export const OPERATIONS = ['read', 'insert', 'update', 'remove'] as const;
export type Operation = (typeof OPERATIONS)[number];
export type Permissions = Record<Operation, Role>;

/** The server's defaults for an operation the collection does not name. */
export const DEFAULT_PERMISSIONS: Permissions = { read: 'SITE_MEMBER_AUTHOR', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' };

export const OPERATION_LABELS: Record<Operation, string> = { read: 'Read items', insert: 'Add items', update: 'Change items', remove: 'Delete items' };

const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

export function roleLabel(role: unknown, operation: Operation = 'read'): string {
  switch (role) {
    case 'ANYONE': return 'Anyone';
    case 'SITE_MEMBER': return 'Site members';
    // Adding makes the member the item's author, so for inserts it means any member.
    case 'SITE_MEMBER_AUTHOR': return operation === 'insert' ? 'Site members, as authors' : 'The item’s author';
    case 'ADMIN': return 'Back office only';
    default: return roleLabel(DEFAULT_PERMISSIONS[operation], operation);
  }
}

export function permissionsOf(wire: Record<string, unknown> | undefined): Permissions {
  const out = { ...DEFAULT_PERMISSIONS };
  for (const op of OPERATIONS) {
    const role = wire?.[op];
    if (isRole(role)) out[op] = role;
  }
  return out;
}
