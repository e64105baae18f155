import { describe, expect, it } from 'vitest';
import { usePlatform } from '../support/platform.js';

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
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining([
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
    ]));
    expect(body.paths['/api/user-service/users/sign-up'].post.responses['403'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    expect(body.components.schemas.UserProfile.properties).toHaveProperty('avatarId');
  });
});
