import { describe, expect, it } from 'vitest';
import { canSee, projectionFor, relationTo, viewerOf, widestFieldset, type Viewer } from './access.js';

const visitor: Viewer = { kind: 'VISITOR' };
const self: Viewer = { kind: 'MEMBER', memberId: 'm1' };
const other: Viewer = { kind: 'MEMBER', memberId: 'm2' };
const app: Viewer = { kind: 'ADMIN', role: 'APP' };
const member = (status: 'APPROVED' | 'PENDING' | 'BLOCKED', privacyStatus: 'PUBLIC' | 'PRIVATE') => ({ memberId: 'm1', status, privacyStatus });

describe('who sees whom', () => {
  it.each([
    ['a visitor sees a public approved member', visitor, member('APPROVED', 'PUBLIC'), true],
    ['a visitor does not see a private member', visitor, member('APPROVED', 'PRIVATE'), false],
    ['another member does not see a blocked public member', other, member('BLOCKED', 'PUBLIC'), false],
    ['another member does not see a pending member', other, member('PENDING', 'PUBLIC'), false],
    ['a member sees themself while private', self, member('APPROVED', 'PRIVATE'), true],
    ['an API key sees a private blocked member', app, member('BLOCKED', 'PRIVATE'), true],
  ] as const)('%s', (_name, viewer, target, visible) => {
    expect(canSee(viewer, target)).toBe(visible);
  });

  it('maps callers to viewers', () => {
    expect(viewerOf({ kind: 'WIX_USER', siteId: 's', subjectId: 'o', memberRole: 'OWNER' })).toEqual({ kind: 'ADMIN', role: 'OWNER', memberId: 'o' });
    expect(viewerOf({ kind: 'WIX_USER', siteId: 's', subjectId: 'c', memberRole: 'CONTRIBUTOR' })).toEqual({ kind: 'ADMIN', role: 'CONTRIBUTOR', memberId: 'c' });
    expect(viewerOf({ kind: 'APP', siteId: 's', subjectId: 'k' })).toEqual({ kind: 'ADMIN', role: 'APP' });
    expect(viewerOf({ kind: 'ANONYMOUS_VISITOR', siteId: 's', subjectId: 'v' })).toEqual({ kind: 'VISITOR' });
    expect(relationTo(self, 'm1')).toBe('SELF');
    expect(relationTo(other, 'm1')).toBe('OTHER');
  });
});

describe('fieldsets', () => {
  it('takes the widest fieldset asked for, PUBLIC by default', () => {
    expect(widestFieldset(undefined)).toBe('PUBLIC');
    expect(widestFieldset(['PUBLIC', 'EXTENDED'])).toBe('EXTENDED');
    expect(widestFieldset(['FULL', 'PUBLIC'])).toBe('FULL');
  });
  it('caps others at PUBLIC plus public custom fields, and gives oneself and admins what they ask', () => {
    expect(projectionFor('OTHER', ['FULL'])).toEqual({ level: 'PUBLIC', publicCustomFieldsOnly: true, role: false });
    expect(projectionFor('OTHER', ['PUBLIC'])).toEqual({ level: 'PUBLIC', publicCustomFieldsOnly: false, role: false });
    expect(projectionFor('SELF', ['FULL'])).toEqual({ level: 'FULL', publicCustomFieldsOnly: false, role: true });
    expect(projectionFor('ADMIN', ['EXTENDED'])).toEqual({ level: 'EXTENDED', publicCustomFieldsOnly: false, role: false });
  });
});
