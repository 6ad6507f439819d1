import { describe, expect, it } from 'vitest';
import { ApiError } from '../../platform/errors.js';
import { compileFilter, compileSearch, compileSort, escapeLike, prefixUpperBound, type FieldMap } from './query-filter.js';

const fields: FieldMap = {
  id: { sql: 'm.member_id', kind: 'text', public: true, sortable: true },
  loginEmail: { sql: 'm.login_email', kind: 'text', caseInsensitive: true, sortable: true, searchable: true },
  status: { sql: 'm.status', kind: 'enum', values: ['APPROVED', 'BLOCKED'], public: true },
  'profile.nickname': { sql: "(m.profile->>'nickname')", kind: 'text', public: true, sortable: true, searchable: true },
  createdDate: { sql: 'm.created_at', kind: 'timestamp', public: true, sortable: true },
};
const admin = { admin: true, path: 'query.filter' };

function compile(filter: unknown, options = admin) {
  const params: unknown[] = [];
  return { sql: compileFilter(filter, fields, params, options), params };
}

function violation(fn: () => unknown): { field: string; violatedRule: string } {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError && error.violations) return { field: error.violations[0].field, violatedRule: error.violations[0].rule };
    throw error;
  }
  throw new Error('expected a violation');
}

describe('member filters', () => {
  it.each([
    ['an empty filter', {}, 'TRUE', []],
    ['the builder\'s eq on _id (sent as id)', { id: 'x' }, 'm.member_id = $1', ['x']],
    ['the SDK name _id too', { _id: 'x' }, 'm.member_id = $1', ['x']],
    ['$and of two', { $and: [{ id: 'x' }, { 'profile.nickname': { $ne: 'a' } }] }, "(m.member_id = $1 AND (m.profile->>'nickname') IS DISTINCT FROM $2)", ['x', 'a']],
    ['$not in object form', { $not: { status: 'BLOCKED' } }, 'NOT coalesce((m.status = $1), false)', ['BLOCKED']],
    ['$not in array form', { $not: [{ status: 'BLOCKED' }] }, 'NOT coalesce((m.status = $1), false)', ['BLOCKED']],
    ['$or', { $or: [{ id: 'a' }, { id: 'b' }] }, '(m.member_id = $1 OR m.member_id = $2)', ['a', 'b']],
    ['$in', { status: { $in: ['APPROVED', 'BLOCKED'] } }, 'm.status = ANY($1::text[])', [['APPROVED', 'BLOCKED']]],
    ['e-mails case-insensitively', { loginEmail: 'Ann@X.com' }, 'lower(m.login_email) = $1', ['ann@x.com']],
    ['$startsWith case-insensitively as a range, wildcards plain', { 'profile.nickname': { $startsWith: 'A_b%' } },
      `((lower((m.profile->>'nickname')) COLLATE "C") >= $1 AND (lower((m.profile->>'nickname')) COLLATE "C") < $2)`, ['a_b%', 'a_b&']],
    ['$startsWith a prefix without an upper bound as LIKE', { 'profile.nickname': { $startsWith: '\u{10FFFF}' } },
      `(lower((m.profile->>'nickname')) COLLATE "C") LIKE $1`, ['\u{10FFFF}%']],
    ['dates', { createdDate: { $gte: '2024-01-01T00:00:00.000Z' } }, 'm.created_at >= $1', [new Date('2024-01-01T00:00:00.000Z')]],
    ['$exists', { 'profile.nickname': { $exists: false } }, "(m.profile->>'nickname') IS NULL", []],
    ['eq null', { 'profile.nickname': null }, "(m.profile->>'nickname') IS NULL", []],
    ['two operators on one field', { createdDate: { $gt: '2024-01-01', $lt: '2025-01-01' } }, '(m.created_at > $1 AND m.created_at < $2)', [new Date('2024-01-01'), new Date('2025-01-01')]],
  ])('compiles %s', (_name, filter, sql, params) => {
    expect(compile(filter)).toEqual({ sql, params });
  });

  it.each([
    ['an unknown field', { password: 'x' }, 'query.filter.password', 'FIELD_NOT_ALLOWED'],
    ['an unknown operator', { id: { $regex: '.*' } }, 'query.filter.id.$regex', 'VALIDATION'],
    ['an unknown logical operator', { $nor: [] }, 'query.filter.$nor', 'VALIDATION'],
    ['a bad enum value', { status: 'GONE' }, 'query.filter.status', 'INVALID_ENUM_VALUE'],
    ['a bad date', { createdDate: 'yesterday' }, 'query.filter.createdDate', 'FORMAT'],
    ['a number for text', { id: 5 }, 'query.filter.id', 'VALIDATION'],
    ['$in without a list', { id: { $in: 'x' } }, 'query.filter.id.$in', 'VALIDATION'],
    ['a filter that is not an object', [1], 'query.filter', 'VALIDATION'],
  ])('refuses %s', (_name, filter, field, violatedRule) => {
    expect(violation(() => compile(filter))).toEqual({ field, violatedRule });
  });

  it('keeps private fields to admins', () => {
    expect(violation(() => compile({ loginEmail: 'a@b.c' }, { admin: false, path: 'query.filter' }))).toEqual({ field: 'query.filter.loginEmail', violatedRule: 'FIELD_NOT_ALLOWED' });
    expect(compile({ 'profile.nickname': 'x' }, { admin: false, path: 'query.filter' }).sql).toBe("(m.profile->>'nickname') = $1");
  });

  it('refuses a filter nested too deep', () => {
    let filter: Record<string, unknown> = { id: 'x' };
    for (let i = 0; i < 20; i++) filter = { $and: [filter] };
    expect(violation(() => compile(filter)).violatedRule).toBe('MAX_SIZE');
  });
});

describe('member sorts and searches', () => {
  const sortOptions = { admin: true, path: 'query.sort' };
  it('sorts by the keys asked, then by id in the last direction', () => {
    expect(compileSort([{ fieldName: 'profile.nickname' }, { fieldName: 'createdDate', order: 'DESC' }], fields, sortOptions, 'm.member_id', 'x'))
      .toBe(`(lower((m.profile->>'nickname')) COLLATE "C") ASC, m.created_at DESC, m.member_id DESC`);
    expect(compileSort([{ fieldName: '_createdDate', order: 'ASC' }], fields, sortOptions, 'm.member_id', 'x')).toBe('m.created_at ASC, m.member_id ASC');
    expect(compileSort(undefined, fields, sortOptions, 'm.member_id', 'fallback')).toBe('fallback');
  });
  it('refuses unsortable fields and bad orders', () => {
    expect(violation(() => compileSort([{ fieldName: 'status' }], fields, sortOptions, 'm.member_id', 'x')).violatedRule).toBe('FIELD_NOT_ALLOWED');
    expect(violation(() => compileSort([{ fieldName: 'id', order: 'UP' }], fields, sortOptions, 'm.member_id', 'x')).violatedRule).toBe('INVALID_ENUM_VALUE');
  });
  it('searches the nickname by default, any searchable field on request', () => {
    const params: unknown[] = [];
    expect(compileSearch({ expression: 'An_n' }, fields, params, { admin: true, path: 'search' }, ['profile.nickname'])).toBe("(lower((m.profile->>'nickname')) LIKE $1)");
    expect(params).toEqual(['%an\\_n%']);
    const more: unknown[] = [];
    expect(compileSearch({ expression: 'x', fields: ['loginEmail', 'profile.nickname'] }, fields, more, { admin: true, path: 'search' }, []))
      .toBe("(lower(m.login_email) LIKE $1 OR lower((m.profile->>'nickname')) LIKE $1)");
    expect(compileSearch({ expression: '' }, fields, [], { admin: true, path: 'search' }, [])).toBe('TRUE');
    expect(escapeLike('50%_\\')).toBe('50\\%\\_\\\\');
  });
});

describe('prefix ranges', () => {
  it.each([
    ['member 42', 'member 43'], ['a', 'b'], ['az', 'a{'], ['\u{10FFFF}', undefined], ['x\u{10FFFF}', 'y'], ['\uD7FF', '\uE000'],
  ])('the strings starting with %j end before %j', (prefix, upper) => {
    expect(prefixUpperBound(prefix)).toBe(upper);
  });
});
