import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signedToken, usePlatform } from '../support/platform.js';

const BASE = '/api/room-service';

/** A user of the test platform: a signed token for a new uuid. */
async function person(role: Parameters<typeof signedToken>[0] = 'user') {
  const uuid = randomUUID();
  return { uuid, token: await signedToken(role, uuid) };
}

const unique = (word: string) => `${word}-${randomUUID().slice(0, 8)}`;

describe('communities through the BFF', () => {
  const { call } = usePlatform();

  it('lets global roles list (crud query syntax), create, bulk create, change, replace and delete communities', async () => {
    const admin = await person('admin');
    const staff = await person('staff');
    const user = await person();
    const owner = await person();
    const slug = unique('house');

    expect(await call('GET', `${BASE}/admin/communities`, { token: user.token })).toMatchObject({
      status: 403,
      body: { message: 'Only administrators can do this' },
    });
    expect(await call('POST', `${BASE}/admin/communities`, { token: user.token, body: { name: 'Nope' } })).toMatchObject({ status: 403 });

    const created = await call('POST', `${BASE}/admin/communities`, {
      token: admin.token,
      body: {
        name: 'House Heads',
        slug,
        description: 'Four to the floor',
        imageUrl: 'https://img.example/house.png',
        ownerUuid: owner.uuid,
      },
    });
    expect(created).toMatchObject({
      status: 201,
      body: {
        slug,
        name: 'House Heads',
        description: 'Four to the floor',
        imageUrl: 'https://img.example/house.png',
        ownerUuid: owner.uuid,
        membersCount: 1,
        roomsCount: 0,
        isMember: false,
        memberRole: null,
      },
    });
    const id = created.body.id as number;
    expect(await call('POST', `${BASE}/admin/communities`, { token: admin.token, body: { name: 'Again', slug } })).toMatchObject({
      status: 409,
      body: { message: 'A community with this slug already exists' },
    });
    // A derived slug.
    const derived = await call('POST', `${BASE}/admin/communities`, { token: staff.token, body: { name: `Déjà Vu ${slug}` } });
    expect(derived).toMatchObject({ status: 201, body: { slug: `deja-vu-${slug}` } });

    // Bulk: all or none.
    const bulkA = unique('bulk-a');
    const bulkB = unique('bulk-b');
    const bulk = await call('POST', `${BASE}/admin/communities/bulk`, {
      token: admin.token,
      body: {
        bulk: [
          { name: 'Bulk A', slug: bulkA },
          { name: 'Bulk B', slug: bulkB },
        ],
      },
    });
    expect(bulk.status).toBe(201);
    expect(bulk.body.map((c: { slug: string }) => c.slug)).toEqual([bulkA, bulkB]);
    const bulkC = unique('bulk-c');
    expect(
      await call('POST', `${BASE}/admin/communities/bulk`, {
        token: admin.token,
        body: {
          bulk: [
            { name: 'Bulk C', slug: bulkC },
            { name: 'Bulk A again', slug: bulkA },
          ],
        },
      }),
    ).toMatchObject({ status: 409, body: { message: 'A community with this slug already exists' } });
    expect((await call('GET', `${BASE}/admin/communities?filter=slug||$eq||${bulkC}`, { token: admin.token })).body).toMatchObject({
      data: [],
      total: 0,
    });

    // The crud query: filters, or, sort, fields, paging.
    const listed = await call('GET', `${BASE}/admin/communities?filter=slug||$in||${bulkA},${bulkB}&sort=slug,DESC&fields=name&limit=1`, {
      token: admin.token,
    });
    expect(listed).toMatchObject({ status: 200, body: { count: 1, total: 2, page: 1, pageCount: 2 } });
    expect(listed.body.data).toEqual([{ id: expect.any(Number), uuid: expect.any(String), name: 'Bulk B' }]);
    const second = await call('GET', `${BASE}/admin/communities?filter=slug||$in||${bulkA},${bulkB}&sort=slug,DESC&limit=1&page=2`, {
      token: admin.token,
    });
    expect(second.body).toMatchObject({ page: 2, data: [{ slug: bulkA, name: 'Bulk A' }] });
    const search = encodeURIComponent(JSON.stringify({ $or: [{ slug: bulkA }, { name: { $contL: 'house heads' } }] }));
    expect(
      (await call('GET', `${BASE}/admin/communities?s=${search}&sort=id,ASC`, { token: admin.token })).body.data.map(
        (c: { slug: string }) => c.slug,
      ),
    ).toEqual([slug, bulkA]);
    expect(await call('GET', `${BASE}/admin/communities?filter=password||$eq||x`, { token: admin.token })).toMatchObject({
      status: 400,
      body: { message: 'Unknown field: password' },
    });
    expect(await call('GET', `${BASE}/admin/communities?join=rooms`, { token: admin.token })).toMatchObject({ status: 400 });

    expect(await call('GET', `${BASE}/admin/communities/${id}?fields=slug,ownerUuid`, { token: admin.token })).toMatchObject({
      status: 200,
      body: { id, uuid: created.body.uuid, slug, ownerUuid: owner.uuid },
    });
    expect((await call('GET', `${BASE}/admin/communities/${id}?fields=slug`, { token: admin.token })).body).not.toHaveProperty('name');
    expect(await call('GET', `${BASE}/admin/communities/2000000000`, { token: admin.token })).toMatchObject({
      status: 404,
      body: { message: 'Community not found' },
    });

    // PATCH changes what it names; a new owner takes over and the previous one stays as a moderator.
    const newOwner = await person();
    const patched = await call('PATCH', `${BASE}/admin/communities/${id}`, {
      token: admin.token,
      body: { name: 'House Heads United', ownerUuid: newOwner.uuid },
    });
    expect(patched).toMatchObject({
      status: 200,
      body: { name: 'House Heads United', description: 'Four to the floor', ownerUuid: newOwner.uuid, membersCount: 2 },
    });
    const members = await call('GET', `${BASE}/communities/${id}/users`, { token: user.token });
    expect(members.body.users.map((m: { userUuid: string; role: string }) => [m.userUuid, m.role])).toEqual([
      [newOwner.uuid, 'owner'],
      [owner.uuid, 'moderator'],
    ]);
    // PUT replaces: what is left out takes its default.
    const replaced = await call('PUT', `${BASE}/admin/communities/${id}`, {
      token: admin.token,
      body: { name: 'House', ownerUuid: newOwner.uuid },
    });
    expect(replaced).toMatchObject({
      status: 200,
      body: { name: 'House', slug, description: '', imageUrl: null, ownerUuid: newOwner.uuid },
    });
    expect(await call('PATCH', `${BASE}/admin/communities/${id}`, { token: user.token, body: { name: 'Mine' } })).toMatchObject({
      status: 403,
    });

    // The special communities stay, with their slugs.
    const jqbx = (await call('GET', `${BASE}/communities/jqbx`, { token: user.token })).body;
    expect(jqbx).toMatchObject({ slug: 'jqbx', name: 'JQBX' });
    expect(await call('DELETE', `${BASE}/admin/communities/${jqbx.id}`, { token: admin.token })).toMatchObject({
      status: 403,
      body: { message: 'This community cannot be deleted' },
    });
    expect(await call('PATCH', `${BASE}/admin/communities/${jqbx.id}`, { token: admin.token, body: { slug: 'jqbx-2' } })).toMatchObject({
      status: 403,
      body: { message: "This community's slug cannot change" },
    });

    expect(await call('DELETE', `${BASE}/admin/communities/${id}`, { token: user.token })).toMatchObject({ status: 403 });
    expect(await call('DELETE', `${BASE}/admin/communities/${id}`, { token: admin.token })).toMatchObject({ status: 200 });
    expect(await call('GET', `${BASE}/communities/${slug}`, { token: user.token })).toMatchObject({
      status: 404,
      body: { message: 'Community not found' },
    });
  });

  it('joins and leaves, lists members by limit and offset, and answers membership of jqbx and web3', async () => {
    const admin = await person('admin');
    const owner = await person();
    const slug = unique('techno');
    const community = (
      await call('POST', `${BASE}/admin/communities`, { token: admin.token, body: { name: 'Techno', slug, ownerUuid: owner.uuid } })
    ).body;
    const fans = await Promise.all([person(), person(), person()]);
    for (const fan of fans) {
      const joined = await call('POST', `${BASE}/communities/${slug}/join`, { token: fan.token });
      expect(joined).toMatchObject({ status: 200, body: { slug, isMember: true, memberRole: 'member' } });
    }
    // Joining again changes nothing; by uuid and numeric id too.
    expect(await call('POST', `${BASE}/communities/${community.uuid}/join`, { token: fans[0].token })).toMatchObject({
      body: { membersCount: 4, memberRole: 'member' },
    });
    expect(await call('GET', `${BASE}/communities/${community.id}`, { token: fans[1].token })).toMatchObject({
      body: { slug, isMember: true, membersCount: 4 },
    });

    const page = await call('GET', `${BASE}/communities/${slug}/users?limit=2&offset=1`, { token: fans[0].token });
    expect(page).toMatchObject({ status: 200, body: { total: 4 } });
    expect(page.body.users.map((u: { userUuid: string }) => u.userUuid)).toEqual([fans[0].uuid, fans[1].uuid]);
    expect(await call('GET', `${BASE}/communities/${slug}/users?limit=101`, { token: fans[0].token })).toMatchObject({ status: 400 });

    expect(await call('POST', `${BASE}/communities/${slug}/leave`, { token: fans[2].token })).toMatchObject({
      status: 200,
      body: { isMember: false, memberRole: null, membersCount: 3 },
    });
    // Leaving again changes nothing.
    expect(await call('POST', `${BASE}/communities/${slug}/leave`, { token: fans[2].token })).toMatchObject({
      status: 200,
      body: { isMember: false },
    });
    expect(await call('POST', `${BASE}/communities/${slug}/leave`, { token: owner.token })).toMatchObject({
      status: 403,
      body: { message: 'The owner cannot leave the community' },
    });
    const guest = await person('guest');
    expect(await call('POST', `${BASE}/communities/${slug}/join`, { token: guest.token })).toMatchObject({
      status: 403,
      body: { message: 'Guests cannot join communities' },
    });
    expect(await call('POST', `${BASE}/communities/${unique('nowhere')}/join`, { token: fans[0].token })).toMatchObject({
      status: 404,
      body: { message: 'Community not found' },
    });

    // jqbx and web3: the client asks whether the user is a member.
    const newcomer = await person();
    expect(await call('GET', `${BASE}/communities/jqbx`, { token: newcomer.token })).toMatchObject({ body: { isMember: false } });
    expect(await call('GET', `${BASE}/communities/web3`, { token: newcomer.token })).toMatchObject({ body: { isMember: false } });
    await call('POST', `${BASE}/communities/web3/join`, { token: newcomer.token });
    expect(await call('GET', `${BASE}/communities/web3`, { token: newcomer.token })).toMatchObject({
      body: { isMember: true, memberRole: 'member' },
    });
    await call('POST', `${BASE}/communities/${slug}/join`, { token: newcomer.token });
    const mine = await call('GET', `${BASE}/user-communities`, { token: newcomer.token });
    expect(mine.status).toBe(200);
    expect(mine.body.map((c: { slug: string; isMember: boolean }) => [c.slug, c.isMember])).toEqual([
      ['web3', true],
      [slug, true],
    ]);
    expect((await call('GET', `${BASE}/user-communities`, { token: (await person()).token })).body).toEqual([]);
  });

  it('lets anyone browse every community, the most members first, searched by name or slug, with their membership', async () => {
    const admin = await person('admin');
    const fan = await person();
    const word = unique('browse');
    const make = async (name: string) =>
      (await call('POST', `${BASE}/admin/communities`, { token: admin.token, body: { name: `${name} ${word}` } })).body as {
        slug: string;
        id: number;
      };
    const quiet = await make('Quiet');
    const busy = await make('Busy');
    await call('POST', `${BASE}/communities/${busy.slug}/join`, { token: fan.token });
    await call('POST', `${BASE}/communities/${busy.slug}/join`, { token: (await person()).token });
    await call('POST', `${BASE}/communities/${quiet.slug}/join`, { token: (await person()).token });

    const found = await call('GET', `${BASE}/communities?search=${word.toUpperCase()}`, { token: fan.token });
    expect(found).toMatchObject({ status: 200, body: { total: 2 } });
    expect(
      found.body.communities.map((c: { slug: string; membersCount: number; isMember: boolean }) => [c.slug, c.membersCount, c.isMember]),
    ).toEqual([
      [busy.slug, 2, true],
      [quiet.slug, 1, false],
    ]);
    const second = await call('GET', `${BASE}/communities?search=${word}&limit=1&offset=1`, { token: fan.token });
    expect(second.body).toMatchObject({ total: 2, communities: [{ slug: quiet.slug }] });
    // LIKE's own characters are only characters; everyone (jqbx and web3 at least) without a search.
    expect((await call('GET', `${BASE}/communities?search=${encodeURIComponent('%_')}`, { token: fan.token })).body).toEqual({
      communities: [],
      total: 0,
    });
    const all = await call('GET', `${BASE}/communities?limit=100`, { token: fan.token });
    expect(all.body.total).toBeGreaterThanOrEqual(4);
    expect(all.body.communities.map((c: { slug: string }) => c.slug)).toEqual(expect.arrayContaining(['jqbx', 'web3']));
    expect(await call('GET', `${BASE}/communities?limit=0`, { token: fan.token })).toMatchObject({ status: 400 });
    expect(await call('GET', `${BASE}/communities?search=${'x'.repeat(101)}`, { token: fan.token })).toMatchObject({ status: 400 });
  });

  it('lets the owner and moderators manage members, within their rank', async () => {
    const admin = await person('admin');
    const owner = await person();
    const slug = unique('disco');
    await call('POST', `${BASE}/admin/communities`, { token: admin.token, body: { name: 'Disco', slug, ownerUuid: owner.uuid } });
    const [mod, member, other, stranger] = await Promise.all([person(), person(), person(), person()]);

    expect(await call('PUT', `${BASE}/communities/${slug}/users/${member.uuid}`, { token: stranger.token, body: {} })).toMatchObject({
      status: 403,
      body: { message: "Only the community's owner and moderators can change its members" },
    });
    expect(
      await call('PUT', `${BASE}/communities/${slug}/users/${mod.uuid}`, { token: owner.token, body: { role: 'moderator' } }),
    ).toMatchObject({
      status: 200,
      body: { userUuid: mod.uuid, role: 'moderator' },
    });
    // A moderator adds members (no body: a member) but names no moderators.
    expect(await call('PUT', `${BASE}/communities/${slug}/users/${member.uuid}`, { token: mod.token })).toMatchObject({
      status: 200,
      body: { userUuid: member.uuid, role: 'member' },
    });
    expect(
      await call('PUT', `${BASE}/communities/${slug}/users/${other.uuid}`, { token: mod.token, body: { role: 'moderator' } }),
    ).toMatchObject({
      status: 403,
      body: { message: "Only the community's owner can choose its moderators" },
    });
    expect(
      await call('PUT', `${BASE}/communities/${slug}/users/${other.uuid}`, { token: mod.token, body: { role: 'owner' } }),
    ).toMatchObject({
      status: 400,
    });
    expect(await call('GET', `${BASE}/communities/${slug}`, { token: member.token })).toMatchObject({
      body: { isMember: true, membersCount: 3 },
    });

    // Removing: not the owner, not a peer, not by a stranger.
    expect(await call('DELETE', `${BASE}/communities/${slug}/users/${owner.uuid}`, { token: admin.token })).toMatchObject({
      status: 403,
      body: { message: "The community's owner cannot be removed; give the community another owner first" },
    });
    expect(await call('DELETE', `${BASE}/communities/${slug}/users/${member.uuid}`, { token: stranger.token })).toMatchObject({
      status: 403,
      body: { message: 'You are not allowed to remove this member' },
    });
    expect(await call('DELETE', `${BASE}/communities/${slug}/users/${mod.uuid}`, { token: member.token })).toMatchObject({ status: 403 });
    expect(await call('DELETE', `${BASE}/communities/${slug}/users/${member.uuid}`, { token: mod.token })).toMatchObject({
      status: 200,
      body: { removed: true },
    });
    expect(await call('DELETE', `${BASE}/communities/${slug}/users/${member.uuid}`, { token: mod.token })).toMatchObject({
      status: 404,
      body: { message: 'This user is not a member of the community' },
    });
    expect(await call('DELETE', `${BASE}/communities/${slug}/users/${mod.uuid}`, { token: owner.token })).toMatchObject({ status: 200 });
    expect(await call('DELETE', `${BASE}/communities/${slug}/users/not-a-uuid`, { token: owner.token })).toMatchObject({ status: 400 });
  });

  it("gathers rooms, listed by limit and offset, and tells a room's communities", async () => {
    const admin = await person('admin');
    const owner = await person();
    const dj = await person();
    const stranger = await person();
    const slug = unique('jazz');
    await call('POST', `${BASE}/admin/communities`, { token: admin.token, body: { name: 'Jazz', slug, ownerUuid: owner.uuid } });
    const room = async (who: { token: string }, body: Record<string, unknown>) =>
      (await call('POST', `${BASE}/rooms/infrastructure`, { token: who.token, body })).body as { slug: string; uuid: string };
    const [a, b, c] = [
      await room(dj, { name: unique('Jazz A') }),
      await room(dj, { name: unique('Jazz B') }),
      await room(dj, { name: unique('Jazz C') }),
    ];
    const hidden = await room(dj, { name: unique('Jazz Secret'), type: 'PRIVATE' });
    const ownersPrivate = await room(owner, { name: unique('Owner Secret'), unlisted: true });

    expect(await call('PUT', `${BASE}/communities/${slug}/rooms/${a.slug}`, { token: stranger.token })).toMatchObject({
      status: 403,
      body: { message: "Only the community's owner and moderators can change its rooms" },
    });
    expect(await call('PUT', `${BASE}/communities/${slug}/rooms/${a.slug}`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { changed: 1, community: { roomsCount: 1 } },
    });
    expect(await call('POST', `${BASE}/communities/${slug}/${b.uuid}`, { token: owner.token })).toMatchObject({
      status: 200,
      body: { changed: 1, community: { roomsCount: 2 } },
    });
    expect(
      await call('POST', `${BASE}/communities/${slug}/add`, { token: owner.token, body: { rooms: [a.slug, c.slug, ownersPrivate.slug] } }),
    ).toMatchObject({ status: 200, body: { changed: 2, community: { roomsCount: 4 } } });
    expect(await call('POST', `${BASE}/communities/${slug}/add`, { token: owner.token, body: { rooms: [hidden.slug] } })).toMatchObject({
      status: 403,
      body: { message: 'You are not allowed to add this room to the community' },
    });
    expect(await call('POST', `${BASE}/communities/${slug}/add`, { token: admin.token, body: { rooms: [hidden.slug] } })).toMatchObject({
      status: 200,
      body: { changed: 1 },
    });
    expect(
      await call('POST', `${BASE}/communities/${slug}/add`, { token: owner.token, body: { rooms: [unique('no-room')] } }),
    ).toMatchObject({
      status: 404,
      body: { message: 'Room not found' },
    });
    expect(await call('POST', `${BASE}/communities/${slug}/add`, { token: owner.token, body: { rooms: [] } })).toMatchObject({
      status: 400,
    });

    // The list shows each caller the rooms they see listed.
    const everything = await call('GET', `${BASE}/communities/${slug}/rooms?limit=10`, { token: admin.token });
    expect(everything.body.total).toBe(5);
    const forStranger = await call('GET', `${BASE}/communities/${slug}/rooms?limit=2&offset=0`, { token: stranger.token });
    expect(forStranger).toMatchObject({ status: 200, body: { total: 3 } });
    expect(forStranger.body.rooms).toHaveLength(2);
    const rest = await call('GET', `${BASE}/communities/${slug}/rooms?limit=2&offset=2`, { token: stranger.token });
    expect([...forStranger.body.rooms, ...rest.body.rooms].map((r: { slug: string }) => r.slug).sort()).toEqual(
      [a.slug, b.slug, c.slug].sort(),
    );
    expect((await call('GET', `${BASE}/communities/${slug}/rooms?limit=10`, { token: dj.token })).body.total).toBe(4);

    const ofRoom = await call('GET', `${BASE}/room-communities/${a.slug}`, { token: stranger.token });
    expect(ofRoom).toMatchObject({ status: 200, body: [{ slug, isMember: false }] });
    expect(await call('GET', `${BASE}/room-communities/${unique('no-room')}`, { token: stranger.token })).toMatchObject({ status: 404 });

    // Taking rooms out: the community's staff, or the room's owner for their room.
    expect(await call('DELETE', `${BASE}/communities/${slug}/rooms/${a.slug}`, { token: stranger.token })).toMatchObject({
      status: 403,
      body: { message: 'You are not allowed to take this room out of the community' },
    });
    expect(await call('DELETE', `${BASE}/communities/${slug}/rooms/${a.slug}`, { token: dj.token })).toMatchObject({
      status: 200,
      body: { changed: 1, community: { roomsCount: 4 } },
    });
    expect(await call('DELETE', `${BASE}/communities/${slug}/${b.slug}`, { token: owner.token })).toMatchObject({ body: { changed: 1 } });
    expect(
      await call('POST', `${BASE}/communities/${slug}/remove`, { token: owner.token, body: { rooms: [c.uuid, a.slug] } }),
    ).toMatchObject({
      body: { changed: 1, community: { roomsCount: 2 } },
    });
    expect((await call('GET', `${BASE}/room-communities/${a.slug}`, { token: stranger.token })).body).toEqual([]);
  });
});
