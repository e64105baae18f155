import { randomUUID } from 'node:crypto';
import pg from 'pg';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { png } from '../support/images.js';
import { signedToken, usePlatform } from '../support/platform.js';

const BASE = '/api/merch-service/api/v1';

// The token shop's pictures (spec 000: POST /api/v1/consumables/files and PATCH
// /api/v1/token-bundles/{id}/thumbnail as multipart, GET /api/v1/consumables/files/{fileId}).
describe("the shop's pictures through the BFF", () => {
  const { call, platform } = usePlatform();

  async function send(
    method: string,
    path: string,
    token: string | undefined,
    content: Buffer,
    fields: Record<string, string> = {},
    type = 'image/png',
  ) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(content)], { type }), 'picture.png');
    const res = await fetch(`${platform().baseUrl}${path}`, {
      method,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      body: form,
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  async function storedFiles(): Promise<number> {
    const db = new pg.Client({ connectionString: platform().points.databaseUrl });
    await db.connect();
    try {
      return Number((await db.query('select count(*) as n from shop_file')).rows[0].n);
    } finally {
      await db.end();
    }
  }

  it("makes an uploaded picture a consumable's, served to anyone as a WebP that fits in 1024 pixels", async () => {
    const admin = await signedToken('admin');
    const consumable = (
      await call('POST', `${BASE}/consumables`, { token: admin, body: { name: 'Disco ball', tokenCost: 50, displayType: 'cover' } })
    ).body;
    expect(consumable.imageUrl).toBe('');

    const uploaded = await send('POST', `${BASE}/consumables/files`, admin, await png(2048, 1024), { consumableId: consumable.id });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ purpose: 'consumable', width: 1024, height: 512, contentType: 'image/webp' });
    expect(uploaded.body.url).toBe(`${BASE}/consumables/files/${uploaded.body.id}`);

    const user = await signedToken('user');
    expect((await call('GET', `${BASE}/consumables/${consumable.id}`, { token: user })).body.imageUrl).toBe(uploaded.body.url);
    const listed = (await call('GET', `${BASE}/consumables?id=${consumable.id}`, { token: user })).body;
    expect(listed[0].imageUrl).toBe(uploaded.body.url);

    // Public, as an <img> fetches it: no token.
    const served = await fetch(`${platform().baseUrl}${uploaded.body.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toContain('immutable');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1024, height: 512 });

    // A small picture is not enlarged; without consumableId it is only stored.
    const alone = await send('POST', `${BASE}/consumables/files`, admin, await png(64, 32));
    expect(alone).toMatchObject({ status: 201, body: { width: 64, height: 32 } });
  });

  it('gives a token bundle a 512 pixel square thumbnail named by its thumbnail', async () => {
    const admin = await signedToken('admin');
    const bundle = (
      await call('POST', `${BASE}/token-bundles`, {
        token: admin,
        body: { name: '100 tokens', productId: `prod_${randomUUID()}`, tokens: 100 },
      })
    ).body;
    expect(bundle.thumbnail).toBe('');
    const changed = await send('PATCH', `${BASE}/token-bundles/${bundle.id}/thumbnail`, admin, await png(900, 600));
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: bundle.id, name: '100 tokens', tokens: 100 });
    expect(changed.body.thumbnail).toMatch(new RegExp(`^${BASE}/consumables/files/[0-9a-f-]{36}$`));
    const user = await signedToken('user');
    expect((await call('GET', `${BASE}/token-bundles/${bundle.id}`, { token: user })).body.thumbnail).toBe(changed.body.thumbnail);
    const served = await fetch(`${platform().baseUrl}${changed.body.thumbnail}`);
    expect(await sharp(Buffer.from(await served.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 512, height: 512 });
  });

  it('refuses what is not an admin, not a picture, too big or for nothing, and keeps no file for it', async () => {
    const admin = await signedToken('admin');
    const before = await storedFiles();
    const picture = await png(40, 40);
    expect((await send('POST', `${BASE}/consumables/files`, undefined, picture)).status).toBe(401);
    expect(await send('POST', `${BASE}/consumables/files`, await signedToken('user'), picture)).toMatchObject({
      status: 403,
      body: { message: 'Only admins may upload consumable files' },
    });
    expect((await send('PATCH', `${BASE}/token-bundles/${randomUUID()}/thumbnail`, await signedToken('user'), picture)).status).toBe(403);
    expect(await send('POST', `${BASE}/consumables/files`, admin, picture, { consumableId: randomUUID() })).toMatchObject({
      status: 404,
      body: { message: 'Consumable not found' },
    });
    expect(await send('PATCH', `${BASE}/token-bundles/${randomUUID()}/thumbnail`, admin, picture)).toMatchObject({
      status: 404,
      body: { message: 'Token bundle not found' },
    });
    expect(await send('POST', `${BASE}/consumables/files`, admin, Buffer.from('not a picture'), {}, 'image/png')).toMatchObject({
      status: 400,
      body: { message: 'The file is not a JPEG, PNG, WebP or GIF image' },
    });
    expect((await send('POST', `${BASE}/consumables/files`, admin, picture, {}, 'text/plain')).status).toBe(415);
    expect((await send('POST', `${BASE}/consumables/files`, admin, await png(1400, 1400, true))).status).toBe(413);
    expect((await send('POST', `${BASE}/consumables/files`, admin, picture, { consumableId: 'nope' })).status).toBe(400);
    expect(await storedFiles()).toBe(before);

    expect((await fetch(`${platform().baseUrl}${BASE}/consumables/files/${randomUUID()}`)).status).toBe(404);
    expect((await fetch(`${platform().baseUrl}${BASE}/consumables/files/nope`)).status).toBe(400);
  });
});
