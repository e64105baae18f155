import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProfilesServiceClient } from '@spinroom/contracts/user/v1/profiles';
import { createGrpcClient } from '@spinroom/platform';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { png } from '../support/images.js';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

const BASE = '/api/user-service';
const MISSING = '00000000-0000-4000-8000-00000000abcd';
const imagesDir = mkdtempSync(join(tmpdir(), 'spinroom-e2e-user-images-'));
/** Small, so a picture over the service's limit is quick to make. */
const IMAGE_MAX_BYTES = 256 * 1024;

describe('profile paths, pictures and the admin users list through the BFF', () => {
  const { call, platform } = usePlatform({ user: { USER_IMAGES_DIR: imagesDir, USER_IMAGE_MAX_BYTES: IMAGE_MAX_BYTES } });
  afterAll(() => rmSync(imagesDir, { recursive: true, force: true }));

  const signUp = async (nickname: string) =>
    (await call('POST', `${BASE}/users/sign-up`, { body: { email: freshEmail(), password: 'correct horse battery', nickname } })).body as {
      accessToken: string;
      userUuid: string;
    };
  const admin = () => signedToken('admin');
  const service = () => signedToken('service', 'service:seo');

  /** No token: 401; a plain user: 403 when the path is not theirs; the role it is for: the answer. */
  async function expectGuarded(method: string, path: string, options: { body?: unknown; user?: string; forbidden?: boolean }) {
    expect((await call(method, path, { body: options.body })).status, `${method} ${path} without a token`).toBe(401);
    if (options.forbidden) {
      const refused = await call(method, path, { body: options.body, token: options.user });
      expect(refused.status, `${method} ${path} as a plain user`).toBe(403);
      expect(refused.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    }
  }

  async function upload(token: string | undefined, kind: string, content: Buffer, type = 'image/png') {
    const form = new FormData();
    form.append('kind', kind);
    form.append('file', new Blob([new Uint8Array(content)], { type }), 'picture.png');
    const res = await fetch(`${platform().baseUrl}${BASE}/users/images`, {
      method: 'POST',
      headers: token ? { authorization: `Bearer ${token}` } : {},
      body: form,
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  it('serves a profile to services only at /profile/{id}/service and /users/service/{id}/user-profile', async () => {
    const ana = await signUp('Ana');
    for (const path of [`${BASE}/profile/${ana.userUuid}/service`, `${BASE}/users/service/${ana.userUuid}/user-profile`]) {
      await expectGuarded('GET', path, { user: ana.accessToken, forbidden: true });
      const seen = await call('GET', path, { token: await service() });
      expect(seen.status).toBe(200);
      expect(seen.body).toMatchObject({ uuid: ana.userUuid, nickname: 'Ana', badges: [], coverPicture: null });
    }
    const missing = await call('GET', `${BASE}/profile/${MISSING}/service`, { token: await service() });
    expect(missing).toMatchObject({ status: 404, body: { statusCode: 404, message: 'User profile not found', error: 'Not Found' } });
  });

  it("keeps a user's own data: {} at first, replaced by PUT, refused for guests", async () => {
    const ana = await signUp('Ana');
    const path = `${BASE}/users/profile/user-data`;
    await expectGuarded('GET', path, {});
    await expectGuarded('PUT', path, { body: { a: 1 } });
    expect(await call('GET', path, { token: ana.accessToken })).toMatchObject({ status: 200, body: {} });
    const data = { theme: 'dark', volume: 40, muted: ['x'] };
    expect(await call('PUT', path, { token: ana.accessToken, body: data })).toMatchObject({ status: 200, body: data });
    expect(await call('GET', path, { token: ana.accessToken })).toMatchObject({ status: 200, body: data });
    expect((await call('PUT', path, { token: ana.accessToken, body: [1, 2] })).status).toBe(400);
    expect((await call('PUT', path, { token: ana.accessToken, body: { big: 'x'.repeat(17_000) } })).status).toBe(400);
    expect(await call('GET', path, { token: await service() })).toMatchObject({ status: 404, body: { message: 'User profile not found' } });
    const guest = (await call('GET', `${BASE}/auth/guest`)).body as { accessToken: string };
    expect((await call('PUT', path, { token: guest.accessToken, body: data })).status).toBe(403);

    // Over gRPC the data is a google.protobuf.Struct (free-form), not a JSON string: the BFF maps it at the edge.
    const profiles = createGrpcClient(ProfilesServiceClient, platform().grpc.user);
    try {
      const nested = { theme: 'light', player: { volume: 0.5, muted: ['x', 'y'], visualizer: null, on: true } };
      expect((await profiles.updateUserData({ userData: nested }, { token: ana.accessToken })).userData).toEqual(nested);
      expect((await profiles.getUserData({}, { token: ana.accessToken })).userData).toEqual(nested);
      expect(await call('GET', path, { token: ana.accessToken })).toMatchObject({ status: 200, body: nested });
      await expect(profiles.updateUserData({}, { token: ana.accessToken })).rejects.toMatchObject({ status: 400 });
    } finally {
      profiles.close();
    }
  });

  it('reads a user, the caller capabilities, and sets the caller socials', async () => {
    const ana = await signUp('Ana');
    const bob = await signUp('Bob');
    await expectGuarded('GET', `${BASE}/users/user/${ana.userUuid}`, {});
    expect(await call('GET', `${BASE}/users/user/${ana.userUuid}`, { token: bob.accessToken })).toMatchObject({
      status: 200,
      body: { uuid: ana.userUuid, nickname: 'Ana' },
    });
    expect(await call('GET', `${BASE}/users/user/${MISSING}`, { token: bob.accessToken })).toMatchObject({
      status: 404,
      body: { message: 'User profile not found' },
    });
    await expectGuarded('GET', `${BASE}/users/capabilities`, {});
    expect(await call('GET', `${BASE}/users/capabilities`, { token: ana.accessToken })).toMatchObject({
      status: 200,
      body: { capabilities: [] },
    });
    await expectGuarded('POST', `${BASE}/users/user-socials`, { body: { twitter: '@ana' } });
    const set = await call('POST', `${BASE}/users/user-socials`, { token: ana.accessToken, body: { twitter: '@ana', tiktok: 'ana.tt' } });
    expect(set).toMatchObject({ status: 200, body: { twitter: '@ana', tiktok: 'ana.tt', instagram: null } });
    const cleared = await call('POST', `${BASE}/users/user-socials`, { token: ana.accessToken, body: { twitter: null } });
    expect(cleared.body).toMatchObject({ twitter: null, tiktok: 'ana.tt' });
  });

  it("lets admins edit anyone's profile and badges; services add and remove badges", async () => {
    const ana = await signUp('Ana');
    const mallory = await signUp('Mallory');
    await expectGuarded('POST', `${BASE}/users/profile-admin`, {
      body: { userUuid: ana.userUuid, nickname: 'x' },
      user: mallory.accessToken,
      forbidden: true,
    });
    const edited = await call('POST', `${BASE}/users/profile-admin`, {
      token: await admin(),
      body: { userUuid: ana.userUuid, nickname: 'Ana B', twitter: '@anab' },
    });
    expect(edited).toMatchObject({ status: 200, body: { uuid: ana.userUuid, nickname: 'Ana B', twitter: '@anab' } });
    expect(
      (await call('POST', `${BASE}/users/profile-admin`, { token: await admin(), body: { userUuid: MISSING, nickname: 'x' } })).status,
    ).toBe(404);

    const badges = (path: string, list: string[]) => ({ path: `${BASE}/users/${path}`, body: { userUuid: ana.userUuid, badges: list } });
    const change = badges('change-badges-admin', ['STAFF', 'VERIFIED']);
    await expectGuarded('POST', change.path, { body: change.body, user: mallory.accessToken, forbidden: true });
    expect(await call('POST', change.path, { token: await admin(), body: change.body })).toMatchObject({
      status: 200,
      body: { badges: ['VERIFIED', 'STAFF'] },
    });
    expect((await call('POST', change.path, { token: await admin(), body: { userUuid: ana.userUuid, badges: ['GOLD'] } })).status).toBe(
      400,
    );

    const add = badges('add-badges-service', ['JQBX', 'VERIFIED']);
    const remove = badges('remove-badges-service', ['STAFF']);
    for (const { path, body } of [add, remove]) {
      await expectGuarded('POST', path, { body, user: mallory.accessToken, forbidden: true });
      expect((await call('POST', path, { token: await admin(), body })).status, 'admins are not services').toBe(403);
    }
    expect((await call('POST', add.path, { token: await service(), body: add.body })).body).toMatchObject({
      badges: ['VERIFIED', 'JQBX', 'STAFF'],
    });
    expect((await call('POST', remove.path, { token: await service(), body: remove.body })).body).toMatchObject({
      badges: ['VERIFIED', 'JQBX'],
    });
    expect((await call('GET', `${BASE}/profile/${ana.userUuid}`, { token: mallory.accessToken })).body).toMatchObject({
      badges: ['VERIFIED', 'JQBX'],
    });
  });

  it('keeps every badge that services add at the same time', async () => {
    const ana = await signUp('Ana');
    const token = await service();
    const badges = ['VERIFIED', 'PLATINUM', 'DOUBLE_PLATINUM', 'JQBX', 'STAFF'];
    const answers = await Promise.all(
      [...badges, ...badges].map((badge) =>
        call('POST', `${BASE}/users/add-badges-service`, { token, body: { userUuid: ana.userUuid, badges: [badge] } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect((await call('GET', `${BASE}/profile/${ana.userUuid}`, { token: ana.accessToken })).body.badges).toEqual(badges);
  });

  it('lists profiles for SEO to services, by id and most recently changed first, with take and skip', async () => {
    const ana = await signUp('Ana');
    const bob = await signUp('Bob');
    for (const path of [`${BASE}/users/service/all-user-profiles`, `${BASE}/users/service/update-user-profiles`]) {
      await expectGuarded('GET', path, { user: ana.accessToken, forbidden: true });
    }
    const all = await call('GET', `${BASE}/users/service/all-user-profiles?take=1000`, { token: await service() });
    expect(all.status).toBe(200);
    const uuids = (all.body.profiles as { uuid: string }[]).map((p) => p.uuid);
    expect(uuids.indexOf(ana.userUuid)).toBeLessThan(uuids.indexOf(bob.userUuid));
    expect(all.body.total).toBe(uuids.length);
    const second = await call('GET', `${BASE}/users/service/all-user-profiles?take=1&skip=1`, { token: await service() });
    expect(second.body.profiles.map((p: { uuid: string }) => p.uuid)).toEqual([uuids[1]]);

    await call('POST', `${BASE}/users/profile`, { token: ana.accessToken, body: { nickname: 'Ana again' } });
    const updated = await call('GET', `${BASE}/users/service/update-user-profiles?take=1`, { token: await service() });
    expect(updated.body.profiles).toHaveLength(1);
    expect(updated.body.profiles[0]).toMatchObject({ uuid: ana.userUuid, nickname: 'Ana again' });
    expect((await call('GET', `${BASE}/users/service/update-user-profiles?take=5000`, { token: await service() })).status).toBe(400);
  });

  it('takes profile and cover pictures, resized to WebP, served by id, deleted by their owner only', async () => {
    const ana = await signUp('Ana');
    const bob = await signUp('Bob');
    expect((await upload(undefined, 'profilePicture', await png(20, 20))).status).toBe(401);

    const picture = await upload(ana.accessToken, 'profilePicture', await png(900, 600));
    expect(picture).toMatchObject({ status: 201, body: { kind: 'profilePicture', width: 512, height: 512, contentType: 'image/webp' } });
    const served = await fetch(`${platform().baseUrl}${picture.body.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 512, height: 512 });
    expect(readdirSync(imagesDir)).toContain(`${picture.body.id}.webp`);

    const cover = await upload(ana.accessToken, 'coverPicture', await png(3000, 1000));
    expect(cover.body).toMatchObject({ kind: 'coverPicture', width: 1500, height: 500 });
    expect((await call('GET', `${BASE}/users/profile`, { token: ana.accessToken })).body.coverPicture).toBe(cover.body.url);

    // What is not a picture, or too big, is refused before anything is kept.
    const before = readdirSync(imagesDir).length;
    expect((await upload(ana.accessToken, 'profilePicture', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).status).toBe(400);
    expect((await upload(ana.accessToken, 'profilePicture', Buffer.from('just text'), 'text/plain')).status).toBe(415);
    expect((await upload(ana.accessToken, 'banner', await png(20, 20))).status).toBe(400);
    const tooBig = await upload(ana.accessToken, 'profilePicture', await png(400, 400, true));
    expect(tooBig).toMatchObject({ status: 413, body: { message: 'The image is larger than the 0.25 MB limit' } });
    expect(readdirSync(imagesDir)).toHaveLength(before);

    const path = `${BASE}/users/images/${cover.body.id}`;
    expect((await call('DELETE', path)).status).toBe(401);
    expect(await call('DELETE', path, { token: bob.accessToken })).toMatchObject({
      status: 403,
      body: { statusCode: 403, message: 'Unauthorized to delete', error: 'Forbidden' },
    });
    expect((await call('DELETE', path, { token: ana.accessToken })).status).toBe(200);
    expect((await fetch(`${platform().baseUrl}${path}`)).status).toBe(404);
    expect((await call('GET', `${BASE}/users/profile`, { token: ana.accessToken })).body.coverPicture).toBeNull();
    expect(readdirSync(imagesDir)).not.toContain(`${cover.body.id}.webp`);
  });

  it('lists users to admins in the @nestjsx/crud syntax, and tells them how the service is', async () => {
    const ana = await signUp('crud-ana');
    await signUp('crud-bob');
    const list = `${BASE}/admin/users`;
    await expectGuarded('GET', list, { user: ana.accessToken, forbidden: true });
    const page = await call('GET', `${list}?fields=nickname,email&filter=nickname||$starts||crud-&sort=nickname,DESC&limit=1`, {
      token: await admin(),
    });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ count: 1, total: 2, page: 1, pageCount: 2 });
    expect(Object.keys(page.body.data[0]).sort()).toEqual(['email', 'id', 'nickname', 'uuid']);
    expect(page.body.data[0].nickname).toBe('crud-bob');
    const search = encodeURIComponent(JSON.stringify({ $or: [{ nickname: 'crud-ana' }, { nickname: { $eq: 'nobody' } }] }));
    expect((await call('GET', `${list}?s=${search}`, { token: await admin() })).body.data.map((u: { uuid: string }) => u.uuid)).toEqual([
      ana.userUuid,
    ]);
    for (const query of ['fields=passwordHash', 'filter=password_hash||$notnull', 'sort=secret,ASC', 'join=roles', 'filter=id||$eq||x']) {
      expect((await call('GET', `${list}?${query}`, { token: await admin() })).status, query).toBe(400);
    }

    const one = `${list}/${ana.userUuid}`;
    await expectGuarded('GET', one, { user: ana.accessToken, forbidden: true });
    const detail = await call('GET', `${one}?fields=roles,createdAt`, { token: await admin() });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ uuid: ana.userUuid, roles: ['user'] });
    expect(Object.keys(detail.body).sort()).toEqual(['createdAt', 'id', 'roles', 'uuid']);
    expect((await call('GET', `${list}/${MISSING}`, { token: await admin() })).status).toBe(404);
    // Unset columns are null, never "null" or a failure (a guest has no email, nobody here a first name).
    const guest = (await call('GET', `${BASE}/auth/guest`)).body as { userUuid: string };
    const whole = await call('GET', `${list}/${guest.userUuid}`, { token: await admin() });
    expect(whole).toMatchObject({
      status: 200,
      body: { uuid: guest.userUuid, kind: 'guest', email: null, firstName: null, roles: ['guest'] },
    });
    expect(Object.keys(whole.body)).toHaveLength(14);

    const status = `${BASE}/info-admin/user-service-status`;
    await expectGuarded('GET', status, { user: ana.accessToken, forbidden: true });
    expect(await call('GET', status, { token: await admin() })).toMatchObject({
      status: 200,
      body: { version: '1.8.5', databaseOk: true },
    });
  });
});
