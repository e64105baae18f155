import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshEmail, usePlatform } from '../support/platform.js';

const BASE = '/api/user-service';

/**
 * Spec 000, section 7, "User service (base /api/user-service)": every method
 * and path, as the spec lists them (path parameters by position, not by name).
 */
const SPEC_PATHS: ReadonlyArray<readonly [string, string]> = [
  // Auth
  ['post', '/auth/login'],
  ['get', '/auth/session'],
  ['get', '/auth/pub-key'],
  ['get', '/auth/magic-link'],
  ['post', '/auth/validate-magic-link'],
  ['get', '/auth/guest'],
  ['post', '/auth/discord-auth'],
  ['post', '/auth/exchange-code'],
  ['post', '/auth/link-discord'],
  // Sign-up
  ['post', '/users/sign-up'],
  ['post', '/users/voucher-sign-up'],
  ['post', '/users/admin/sign-up'],
  ['post', '/users/sign-up-bot'],
  ['get', '/users/bot-token'],
  // Password
  ['post', '/users/change-password'],
  ['post', '/users/forgot-password'],
  ['post', '/users/reset-password'],
  ['post', '/users/set-password'],
  ['post', '/users/change-password-admin'],
  // Emails
  ['get', '/users/emails'],
  ['post', '/users/emails'],
  ['delete', '/users/emails/{}'],
  ['post', '/users/emails/verify'],
  ['post', '/users/confirm-email'],
  ['post', '/users/emails/verification-email'],
  // Mobile
  ['post', '/mobile-auth/send-code'],
  ['post', '/mobile-auth/verify-code'],
  ['post', '/mobile-auth/whitelist'],
  ['delete', '/mobile-auth/whitelist/{}'],
  ['get', '/phone-validation/validate/{}'],
  ['get', '/phone-validation/recents'],
  ['delete', '/phone-validation/recents'],
  ['get', '/phone-validation/fraudConstants'],
  ['get', '/admin/phoneNumbers'],
  ['post', '/admin/phoneNumbers'],
  ['get', '/admin/phoneNumbers/{}'],
  ['delete', '/admin/phoneNumbers/{}'],
  // Identity verification and user identities
  ['post', '/api/v1/identity-verifications/request'],
  ['post', '/api/v1/identity-verifications/verify'],
  ['post', '/api/v1/user-identities'],
  ['get', '/api/v1/user-identities'],
  ['delete', '/api/v1/user-identities/{}'],
  // Profiles
  ['get', '/profile/{}'],
  ['get', '/profile/{}/service'],
  ['get', '/users/profile'],
  ['post', '/users/profile'],
  ['get', '/users/profiles'],
  ['get', '/users/profile/user-data'],
  ['put', '/users/profile/user-data'],
  ['get', '/users/user/{}'],
  ['get', '/users/capabilities'],
  ['post', '/users/user-socials'],
  ['post', '/users/profile-admin'],
  ['post', '/users/change-badges-admin'],
  ['post', '/users/add-badges-service'],
  ['post', '/users/remove-badges-service'],
  ['get', '/users/service/all-user-profiles'],
  ['get', '/users/service/{}/user-profile'],
  ['get', '/users/service/update-user-profiles'],
  // Images
  ['post', '/users/images'],
  ['get', '/users/images/{}'],
  ['delete', '/users/images/{}'],
  // Moderation
  ['post', '/users/kick'],
  ['post', '/users/ban'],
  ['post', '/users/temporary-ban'],
  ['post', '/users/unban'],
  ['post', '/users/add-role'],
  ['post', '/users/add-global-moderator-role'],
  ['post', '/users/cancel-requested-deactivate'],
  ['put', '/users/{}/capabilities/{}'],
  ['delete', '/users/{}/capabilities/{}'],
  ['post', '/moderation-comments'],
  ['get', '/moderation-comments'],
  ['get', '/moderation-comments/{}'],
  // Deactivation
  ['get', '/users/list-deactivate'],
  ['post', '/users/request-deactivate'],
  ['delete', '/users/deactivate/{}'],
  ['post', '/users/reactivate/{}'],
  // Admin
  ['get', '/admin/users'],
  ['get', '/admin/users/{}'],
  ['get', '/info-admin/user-service-status'],
  // Vouchers
  ['post', '/vouchers'],
  ['get', '/vouchers'],
  ['delete', '/vouchers/{}'],
  ['patch', '/vouchers/redeem'],
  // Music providers
  ['post', '/apple/user-token'],
  ['get', '/apple/user-token/{}'],
  ['post', '/soundcloud/refresh-token'],
  ['post', '/soundcloud/mobile/refresh-token'],
  ['get', '/soundcloud/public-token'],
  ['get', '/soundcloud/mobile/public-token'],
  ['get', '/soundcloud/access-token/{}'],
  ['post', '/spotify/exchange-code'],
  ['post', '/spotify/refresh-token'],
  ['delete', '/spotify/refresh-token'],
  ['get', '/spotify/access-token/{}/service'],
  ['post', '/youtube/exchange-code'],
  ['post', '/youtube/refresh-token'],
  // Voice and video, chat provider
  ['post', '/agora/token'],
  ['get', '/comet-chat/user-token'],
  ['get', '/comet-chat/ghost-token'],
  ['post', '/comet-chat/create-users'],
];

type Operation = { security?: Array<Record<string, unknown>> };
type OpenApi = { paths: Record<string, Record<string, Operation>> };

const byPosition = (path: string) => path.replace(/\{\w+\}/g, '{}');

/** A value each path parameter accepts at the edge, so a refusal is about the token, not the path. */
const fillParameters = (path: string) => path.replace(/\{\w+\}/g, () => randomUUID());

describe("spec 000's user service, path by path", () => {
  const { call } = usePlatform();

  const operations = async () => {
    const { body } = await call('GET', '/api/openapi.json');
    const document = body as OpenApi;
    return Object.entries(document.paths)
      .filter(([path]) => path.startsWith(BASE))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ method, path, operation })));
  };

  it('serves every method and path the spec lists', async () => {
    const served = new Set((await operations()).map(({ method, path }) => `${method} ${byPosition(path.slice(BASE.length))}`));
    const missing = SPEC_PATHS.map(([method, path]) => `${method} ${path}`).filter((pair) => !served.has(pair));
    expect(missing).toEqual([]);
  });

  it('refuses every bearer path without a token, and with the token of an ended session', async () => {
    const signUp = await call('POST', `${BASE}/users/sign-up`, { body: { email: freshEmail(), password: 'a long enough passphrase 7' } });
    expect(signUp.status).toBe(201);
    const ended: string = signUp.body.accessToken;
    expect((await call('POST', `${BASE}/auth/logout`, { token: ended })).status).toBeLessThan(300);

    const guarded = (await operations()).filter(({ operation }) => operation.security?.some((scheme) => 'bearerAuth' in scheme));
    expect(guarded.length).toBeGreaterThan(30);
    const answers: string[] = [];
    for (const { method, path } of guarded) {
      const url = fillParameters(path);
      const anonymous = await call(method.toUpperCase(), url);
      const revoked = await call(method.toUpperCase(), url, { token: ended });
      answers.push(`${method} ${path}: ${anonymous.status} ${revoked.status}`);
    }
    expect(answers.filter((answer) => !answer.endsWith(': 401 401'))).toEqual([]);
  });
});
