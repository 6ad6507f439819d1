import { describe, expect, it } from 'vitest';
import type { CallerKind } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { accessFor, DEFAULT_PERMISSIONS, readPermissions, restrictionOf, type Operation, type Role } from './permissions.js';

const caller = (kind: CallerKind) => ({ kind, subjectId: `${kind}-1` });
const all = { kind: 'all' };
const denied = { kind: 'denied' };
const own = { kind: 'own', ownerId: 'MEMBER-1' };

describe('accessFor', () => {
  it.each<[Role, Operation, CallerKind, unknown]>([
    ['ANYONE', 'read', 'ANONYMOUS_VISITOR', all],
    ['ANYONE', 'insert', 'MEMBER', all],
    ['SITE_MEMBER', 'read', 'ANONYMOUS_VISITOR', denied],
    ['SITE_MEMBER', 'read', 'MEMBER', all],
    ['SITE_MEMBER', 'remove', 'MEMBER', all],
    ['SITE_MEMBER_AUTHOR', 'read', 'ANONYMOUS_VISITOR', denied],
    ['SITE_MEMBER_AUTHOR', 'read', 'MEMBER', own],
    ['SITE_MEMBER_AUTHOR', 'update', 'MEMBER', own],
    ['SITE_MEMBER_AUTHOR', 'remove', 'MEMBER', own],
    ['SITE_MEMBER_AUTHOR', 'insert', 'MEMBER', all],
    ['ADMIN', 'read', 'MEMBER', denied],
    ['ADMIN', 'insert', 'ANONYMOUS_VISITOR', denied],
    ['ADMIN', 'update', 'WIX_USER', all],
    ['ADMIN', 'remove', 'APP', all],
    ['SITE_MEMBER_AUTHOR', 'read', 'APP', all],
  ])('gives %s %s to a %s caller: %j', (role, operation, kind, expected) => {
    expect(accessFor({ ...DEFAULT_PERMISSIONS, [operation]: role }, operation, caller(kind))).toEqual(expected);
  });

  it('limits an author to their own items by a filter, and nobody else', () => {
    expect(restrictionOf({ kind: 'own', ownerId: 'm1' })).toEqual({ _owner: 'm1' });
    expect(restrictionOf({ kind: 'all' })).toBeUndefined();
  });
});

describe('readPermissions', () => {
  it('fills absent operations with the defaults', () => {
    expect(readPermissions({ read: 'ANYONE' })).toEqual({ ...DEFAULT_PERMISSIONS, read: 'ANYONE' });
    expect(readPermissions(undefined)).toEqual(DEFAULT_PERMISSIONS);
  });

  it.each([
    ['an unknown role', { read: 'EVERYONE' }],
    ['an unknown operation', { delete: 'ADMIN' }],
    ['a string', 'ANYONE'],
  ])('refuses %s with WDE0910', (_name, wire) => {
    expect(() => readPermissions(wire)).toThrow(ApiError);
    try {
      readPermissions(wire);
    } catch (error) {
      expect((error as ApiError).code).toBe('WDE0910');
    }
  });
});
