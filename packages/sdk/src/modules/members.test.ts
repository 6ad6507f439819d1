import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyStrategy } from '../auth/api-key.js';
import { createClient } from '../client.js';
import { BodegaError } from '../core/errors.js';
import { decodeR, startReceiver, type Receiver } from '../test-support/receiver.js';
import { members } from './members.js';

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

const client = () => createClient({ modules: { members }, auth: ApiKeyStrategy({ apiKey: 'K' }), baseUrl: receiver.url });
const P = '/_api/members/v1/members';

const WIRE_MEMBER = {
  id: 'm-1',
  loginEmail: 'a@b.c',
  status: 'APPROVED',
  createdDate: '2024-05-01T10:00:00.000Z',
  updatedDate: '2024-05-01T10:00:00.000Z',
  lastLoginDate: '2024-05-02T10:00:00.000Z',
  profile: { nickname: 'nick', photo: { id: 'p', url: 'https://x' } },
};

describe('members', () => {
  it('getCurrentMember returns the whole body with SDK keys and Dates', async () => {
    receiver.reply(() => ({ body: { member: WIRE_MEMBER } }));
    const body = await client().members.getCurrentMember({ fieldsets: ['FULL'] });
    expect(receiver.requests[0].url).toBe(`${P}/my?fieldsets=FULL`);
    expect(body.member).toEqual({
      _id: 'm-1',
      loginEmail: 'a@b.c',
      status: 'APPROVED',
      _createdDate: new Date('2024-05-01T10:00:00.000Z'),
      _updatedDate: new Date('2024-05-01T10:00:00.000Z'),
      lastLoginDate: new Date('2024-05-02T10:00:00.000Z'),
      profile: { nickname: 'nick', photo: { _id: 'p', url: 'https://x' } },
    });
  });

  it('getMember sends id and fieldsets in the query and returns .member', async () => {
    receiver.reply(() => ({ body: { member: WIRE_MEMBER } }));
    const member = await client().members.getMember('m-1', { fieldsets: ['PUBLIC'] });
    expect(receiver.requests[0].url).toBe(`${P}/m-1?id=m-1&fieldsets=PUBLIC`);
    expect(member._id).toBe('m-1');
  });

  it('listMembers sends nested options as .r with wire sort names', async () => {
    receiver.reply(() => ({ body: { members: [], metadata: {} } }));
    await client().members.listMembers({
      paging: { limit: 10, offset: 0 },
      fieldsets: ['FULL'],
      sorting: [{ fieldName: '_createdDate', order: 'DESC' }],
    });
    expect(receiver.requests[0].path).toBe(P);
    expect(decodeR(receiver.requests[0])).toEqual({
      paging: { limit: 10, offset: 0 },
      fieldsets: ['FULL'],
      sorting: [{ fieldName: 'createdDate', order: 'DESC' }],
    });
  });

  it('queryMembers builder posts filter, sort and offset paging, and pages from metadata.total', async () => {
    receiver.reply((request) => {
      const { query } = request.body as { query: { paging: { offset: number } } };
      return { body: { members: [{ id: `m-${query.paging.offset}` }], metadata: { total: 3 } } };
    });
    const page = await client()
      .members.queryMembers({ fieldsets: ['FULL'] })
      .eq('_id', 'm-1')
      .ne('status', 'BLOCKED')
      .descending('_createdDate')
      .limit(2)
      .find();
    expect(receiver.requests[0].method).toBe('POST');
    expect(receiver.requests[0].path).toBe(`${P}/query`);
    expect(receiver.requests[0].body).toEqual({
      query: {
        filter: { $and: [{ id: 'm-1' }, { status: { $ne: 'BLOCKED' } }] },
        sort: [{ fieldName: 'createdDate', order: 'DESC' }],
        paging: { limit: 2, offset: 0 },
      },
      fieldsets: ['FULL'],
    });
    expect(page.items).toEqual([{ _id: 'm-0' }]);
    expect(page.totalCount).toBe(3);
    expect(page.hasNext()).toBe(true);
    expect(page.hasPrev()).toBe(false);
    const second = await page.next();
    expect((receiver.requests[1].body as { query: unknown }).query).toMatchObject({ paging: { limit: 2, offset: 2 } });
    expect(second.hasNext()).toBe(false);
    expect(second.hasPrev()).toBe(true);
    await expect(second.next()).rejects.toThrow('There is no next page');
  });

  it('queryMembers always sends an empty filter, default limit 50, and not in object form', async () => {
    receiver.reply(() => ({ body: { members: [], metadata: {} } }));
    const q = client().members.queryMembers();
    await q.find();
    await q.not(client().members.queryMembers().eq('status', 'BLOCKED')).find();
    expect(receiver.requests[0].body).toEqual({ query: { filter: {}, sort: [], paging: { limit: 50, offset: 0 } } });
    expect((receiver.requests[1].body as { query: { filter: unknown } }).query.filter).toEqual({
      $not: { status: 'BLOCKED' },
    });
    const page = await q.find();
    expect(page.hasNext()).toBe(false);
    expect(page.totalCount).toBeUndefined();
  });

  it('sends member actions, deletes and updates to their paths', async () => {
    receiver.reply(() => ({ body: { member: WIRE_MEMBER } }));
    const m = client().members;
    await m.muteMember('m-1');
    await m.approveMember('m-1');
    await m.deleteMemberPhones('m-1');
    await m.updateCurrentMemberSlug('nick');
    await m.joinCommunity();
    await m.bulkDeleteMembers(['m-1']);
    const updated = await m.updateMember('m-1', { profile: { nickname: 'n2' } });
    await m.createMember({ member: { loginEmail: 'x@y.z' } });
    expect(receiver.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST ${P}/m-1/mute`,
      `POST ${P}/m-1/approve`,
      `DELETE ${P}/m-1/phones?id=m-1`,
      `POST ${P}/my/slug`,
      `POST ${P}/join-community`,
      `POST ${P}/bulk/delete`,
      `PATCH ${P}/m-1`,
      `POST ${P}`,
    ]);
    expect(receiver.requests[0].body).toEqual({ id: 'm-1' });
    expect(receiver.requests[6].body).toEqual({ member: { profile: { nickname: 'n2' }, id: 'm-1' } });
    expect(updated._id).toBe('m-1');
  });

  it('rethrows member errors with argument names', async () => {
    receiver.reply(() => ({
      status: 400,
      body: {
        message: 'bad',
        details: {
          validationError: {
            fieldViolations: [
              { field: 'member.id', description: 'is not a GUID' },
              { field: 'member.profile.nickname', description: 'is too long' },
            ],
          },
        },
      },
    }));
    const error = await client()
      .members.updateMember('x', { profile: { nickname: 'n'.repeat(300) } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodegaError);
    expect((error as BodegaError).message).toBe(
      'INVALID_ARGUMENT: "_id" is not a GUID, "member.profile.nickname" is too long',
    );
    receiver.reply(() => ({
      status: 400,
      body: { message: 'bad', details: { validationError: { fieldViolations: [{ field: 'fieldsets', description: 'bad value' }] } } },
    }));
    const second = await client().members.getMember('m-1', { fieldsets: ['FULL'] }).catch((e: unknown) => e);
    expect((second as BodegaError).message).toBe('INVALID_ARGUMENT: "options.fieldsets" bad value');
  });
});
