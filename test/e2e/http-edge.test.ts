import { beforeAll, describe, expect, it } from 'vitest';
import { freshEmail, usePlatform } from '../support/platform.js';

describe('the BFF edge', () => {
  const { call } = usePlatform();

  it('answers malformed JSON, unknown paths and oversized bodies in the one error shape', async () => {
    expect(await call('POST', '/api/user-service/auth/login', { rawBody: '{"email": ' })).toMatchObject({
      status: 400,
      body: { statusCode: 400, message: 'Malformed JSON in request body', error: 'Bad Request' },
    });
    expect(await call('GET', '/api/user-service/nothing-here')).toMatchObject({
      status: 404,
      body: { statusCode: 404, message: 'Cannot GET /api/user-service/nothing-here', error: 'Not Found' },
    });
    const big = await call('POST', '/api/user-service/auth/login', { body: { email: 'a@b.co', password: 'x'.repeat(200_000) } });
    expect(big).toMatchObject({ status: 413, body: { statusCode: 413, message: 'Request body is too large', error: 'Payload Too Large' } });
  });

  it('sends security headers and keeps CORS closed', async () => {
    const res = await call('GET', '/healthz', { headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBeTruthy();
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it('is live and ready when the user service answers', async () => {
    expect(await call('GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await call('GET', '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('documents every path in an OpenAPI 3.1 document made from the validating schemas', async () => {
    const { status, body } = await call('GET', '/api/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        '/api/user-service/auth/guest',
        '/api/user-service/auth/login',
        '/api/user-service/auth/pub-key',
        '/api/user-service/auth/session',
        '/api/user-service/profile/{id}',
        '/api/user-service/users/profile',
        '/api/user-service/users/profiles',
        '/api/user-service/users/sign-up',
        '/api/playlist-service/crate',
        '/api/playlist-service/crate/special/queue/songs',
        '/api/playlist-service/crate/{crateUuid}/songs/{crateSongUuid}/position',
      ]),
    );
    expect(body.paths['/api/user-service/users/sign-up'].post.responses['403'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/Error',
    );
    expect(body.components.schemas.UserProfile.properties).toHaveProperty('avatarId');
    // The edge's control-character rule is in the document, for clients and the fuzzer alike.
    expect(body.components.schemas.Credentials.properties.password.pattern).toBe(
      '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*$',
    );
    const search = body.paths['/api/playlist-service/search'].get.parameters.find((p: { name: string }) => p.name === 'q');
    expect(search.schema.pattern).toBeDefined();
  });

  describe('input that must not reach a service', () => {
    let token: string;
    beforeAll(async () => {
      token = (await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } }))
        .body.accessToken;
    });

    it('refuses control characters in any text, keys included, with the field named (PostgreSQL refuses NUL)', async () => {
      const signUp = await call('POST', '/api/user-service/users/sign-up', {
        body: { email: freshEmail(), password: 'correct\u0000horse', nickname: 'Ana' },
      });
      expect(signUp).toMatchObject({
        status: 400,
        body: { statusCode: 400, message: ['password: must not contain control characters'], error: 'Bad Request' },
      });
      const crate = await call('POST', '/api/playlist-service/crate', { token, body: { crateName: 'mix\u0000tape' } });
      expect(crate).toMatchObject({ status: 400, body: { message: ['crateName: must not contain control characters'] } });
      const search = await call('GET', '/api/playlist-service/search?q=a%00b', { token });
      expect(search).toMatchObject({ status: 400, body: { message: ['q: must not contain control characters'] } });
      const room = await call('POST', '/api/room-service/rooms/infrastructure', { token, body: { name: 'Bell\u0007Room' } });
      expect(room).toMatchObject({ status: 400, body: { message: ['name: must not contain control characters'] } });
      // Tabs and line breaks are text.
      expect((await call('POST', '/api/playlist-service/crate', { token, body: { crateName: 'Two\tlines\nok' } })).status).toBe(201);
    });

    it('refuses ids that are not uuids and offsets beyond the paging bound, before any service sees them', async () => {
      const removed = await call('DELETE', '/api/playlist-service/crate/special/queue/songs/0', { token });
      expect(removed).toMatchObject({ status: 400, body: { message: [expect.stringMatching(/^crateSongUuid: /)] } });
      expect((await call('GET', '/api/user-service/profile/0', { token })).status).toBe(400);
      expect((await call('GET', '/api/upload-service/songs/not-a-uuid', { token })).status).toBe(400);
      for (const path of [
        '/api/room-service/rooms/public?offset=2147483648',
        '/api/room-service/rooms/service/list?skip=2147483648',
        '/api/playlist-service/crate/user?offset=4294967296',
      ]) {
        const res = await call('GET', path, { token });
        expect(res, path).toMatchObject({ status: 400, body: { message: [expect.stringMatching(/^(offset|skip): /)] } });
      }
    });

    it('takes a fractional duration as whole seconds (the wire carries an int32; a fraction once failed as a 502)', async () => {
      const added = await call('POST', '/api/playlist-service/crate/special/queue/songs', {
        token,
        body: {
          songs: [
            {
              musicProvider: 'spotify',
              songId: '4uLU6hMCjMI75M1A2tKUQC',
              trackName: 'Never Gonna Give You Up',
              artistName: 'Rick Astley',
              duration: 212.6,
            },
          ],
        },
      });
      expect(added.status).toBe(201);
      expect(added.body.songs[0]).toMatchObject({ trackName: 'Never Gonna Give You Up', duration: 213 });
    });

    it('answers 415 to a JSON path sent a body of another type (it would otherwise read as empty)', async () => {
      const xml = await call('POST', '/api/playlist-service/crate', {
        token,
        rawBody: '<crate/>',
        headers: { 'content-type': 'application/xml' },
      });
      expect(xml).toMatchObject({
        status: 415,
        body: { statusCode: 415, message: 'Expected a body of type application/json', error: 'Unsupported Media Type' },
      });
      const form = await call('POST', '/api/user-service/auth/login', {
        rawBody: 'email=a%40b.co&password=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.status).toBe(415);
    });
  });
});
