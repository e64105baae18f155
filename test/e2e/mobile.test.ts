import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';
import { STAND_IN_LINE_TYPES, TWILIO_STAND_IN_CREDENTIALS } from '../support/twilio-stand-in.js';

const PHONE_INVALID = 'Phone number is invalid. Only real, non-VoIP mobile numbers are allowed.';
const [VOIP, LANDLINE] = Object.keys(STAND_IN_LINE_TYPES) as [string, string];
const CODES_PER_NUMBER = 3;
const VALIDATIONS_PER_CALLER = 12;

/** A US mobile number (the stand-in's default line type) no other test uses. */
let counter = 0;
function freshPhone(): string {
  counter += 1;
  return `+1415${String(randomInt(200, 1000))}${String((Date.now() + counter) % 10_000).padStart(4, '0')}`;
}

describe('phones through the BFF, against the Twilio stand-in', () => {
  const { call, platform } = usePlatform({
    user: {
      LIMIT_PHONE_CODES_PER_NUMBER: { points: CODES_PER_NUMBER, durationSeconds: 3600, blockSeconds: 0 },
      LIMIT_PHONE_VALIDATIONS_PER_CALLER: { points: VALIDATIONS_PER_CALLER, durationSeconds: 3600, blockSeconds: 0 },
    },
  });

  async function signUp(): Promise<{ token: string; userUuid: string }> {
    const { body } = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: freshEmail(), password: 'correct horse battery' },
    });
    return { token: body.accessToken, userUuid: body.userUuid };
  }

  async function signInByPhone(phone: string, channel = 'sms') {
    const sent = await call('POST', '/api/user-service/mobile-auth/send-code', { body: { phone, channel } });
    expect(sent).toMatchObject({ status: 200, body: { phone, channel, status: 'pending' } });
    const code = platform().twilio.lastCode(phone)!;
    return call('POST', '/api/user-service/mobile-auth/verify-code', { body: { phone, code } });
  }

  it('answers 401 without a token, 403 to a plain user on the admin paths, and serves admins', async () => {
    const user = await signUp();
    const admin = await signedToken('admin');
    const id = '00000000-0000-4000-8000-000000000000';
    const adminPaths: Array<[string, string, unknown?]> = [
      ['POST', '/api/user-service/mobile-auth/whitelist', { phone: freshPhone() }],
      ['DELETE', `/api/user-service/mobile-auth/whitelist/${id}`],
      ['GET', '/api/user-service/phone-validation/recents'],
      ['DELETE', '/api/user-service/phone-validation/recents'],
      ['GET', '/api/user-service/phone-validation/fraudConstants'],
      ['GET', '/api/user-service/admin/phoneNumbers'],
      ['POST', '/api/user-service/admin/phoneNumbers', { userUuid: user.userUuid, phone: freshPhone() }],
      ['GET', `/api/user-service/admin/phoneNumbers/${id}`],
      ['DELETE', `/api/user-service/admin/phoneNumbers/${id}`],
      ['POST', '/api/user-service/api/v1/user-identities', { userUuid: user.userUuid, channel: 'sms', phone: freshPhone() }],
    ];
    for (const [method, path, body] of adminPaths) {
      expect((await call(method, path, { body })).status, `${method} ${path} without a token`).toBe(401);
      const refused = await call(method, path, { body, token: user.token });
      expect(refused, `${method} ${path} as a user`).toMatchObject({ status: 403, body: { statusCode: 403, error: 'Forbidden' } });
      const served = await call(method, path, { body, token: admin });
      // Unknown ids answer 404 once the admin is let in.
      expect([200, 201, 404], `${method} ${path} as an admin: ${JSON.stringify(served.body)}`).toContain(served.status);
    }
    const signedInPaths: Array<[string, string, unknown?]> = [
      ['GET', `/api/user-service/phone-validation/validate/${encodeURIComponent(freshPhone())}`],
      ['POST', '/api/user-service/api/v1/identity-verifications/request', { phone: freshPhone(), channel: 'sms' }],
      ['POST', '/api/user-service/api/v1/identity-verifications/verify', { phone: freshPhone(), code: '123456' }],
      ['GET', '/api/user-service/api/v1/user-identities'],
      ['DELETE', `/api/user-service/api/v1/user-identities/${id}`],
    ];
    for (const [method, path, body] of signedInPaths) {
      expect((await call(method, path, { body })).status, `${method} ${path} without a token`).toBe(401);
      const served = await call(method, path, { body, token: user.token });
      expect([200, 401, 404], `${method} ${path} as a user: ${JSON.stringify(served.body)}`).toContain(served.status);
    }
  });

  it('signs a new number up by SMS code, then signs the same account in by WhatsApp; a wrong code is a 401', async () => {
    const phone = freshPhone();
    const first = await signInByPhone(phone);
    expect(first).toMatchObject({ status: 200, body: { accessToken: expect.any(String), userUuid: expect.any(String), created: true } });
    const session = await call('GET', '/api/user-service/auth/session', { token: first.body.accessToken });
    expect(session).toMatchObject({ status: 200, body: { userUuid: first.body.userUuid, kind: 'user' } });

    const again = await signInByPhone(phone, 'whatsapp');
    expect(again).toMatchObject({ status: 200, body: { userUuid: first.body.userUuid, created: false } });

    await call('POST', '/api/user-service/mobile-auth/send-code', { body: { phone, channel: 'sms' } });
    const right = platform().twilio.lastCode(phone)!;
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    const refused = await call('POST', '/api/user-service/mobile-auth/verify-code', { body: { phone, code: wrong } });
    expect(refused).toMatchObject({ status: 401, body: { statusCode: 401, message: 'The code is incorrect or has expired' } });
    // Used once, a code does not sign in twice.
    expect((await call('POST', '/api/user-service/mobile-auth/verify-code', { body: { phone, code: right } })).status).toBe(200);
    expect((await call('POST', '/api/user-service/mobile-auth/verify-code', { body: { phone, code: right } })).status).toBe(401);

    // What the adapter sent is Twilio's request: Basic auth, form-encoded To and Channel, the Verify service's path.
    const sends = platform().twilio.requests.filter(
      (r) => r.path === `/v2/Services/${TWILIO_STAND_IN_CREDENTIALS.verifyServiceSid}/Verifications`,
    );
    expect(sends.filter((r) => r.form.get('To') === phone).map((r) => [r.authorized, r.form.get('Channel')])).toEqual([
      [true, 'sms'],
      [true, 'whatsapp'],
      [true, 'sms'],
    ]);
  });

  it('validates numbers: VALID mobile, VOIP, INVALID landline or malformed, VALIDATION_ERROR when the lookup fails; the whitelist overrides', async () => {
    const user = await signUp();
    const admin = await signedToken('admin');
    const validate = (phone: string) =>
      call('GET', `/api/user-service/phone-validation/validate/${encodeURIComponent(phone)}`, { token: user.token });
    const mobile = freshPhone();
    expect(await validate(mobile)).toMatchObject({
      status: 200,
      body: { phone: mobile, status: 'VALID', lineType: 'mobile', whitelisted: false },
    });
    expect((await validate(VOIP)).body).toMatchObject({ status: 'VOIP', lineType: 'nonFixedVoip' });
    expect((await validate(LANDLINE)).body).toMatchObject({ status: 'INVALID', lineType: 'landline' });
    expect((await validate('+1202555')).body).toMatchObject({ status: 'INVALID', lineType: null });
    platform().twilio.failNext(500);
    expect((await validate(freshPhone())).body).toMatchObject({ status: 'VALIDATION_ERROR' });

    const voipCode = await call('POST', '/api/user-service/mobile-auth/send-code', { body: { phone: VOIP, channel: 'sms' } });
    expect(voipCode).toMatchObject({ status: 400, body: { statusCode: 400, message: PHONE_INVALID, error: 'Bad Request' } });
    const landlineCode = await call('POST', '/api/user-service/mobile-auth/send-code', { body: { phone: LANDLINE } });
    expect(landlineCode).toMatchObject({ status: 400, body: { message: PHONE_INVALID } });

    const listed = await call('POST', '/api/user-service/mobile-auth/whitelist', {
      token: admin,
      body: { phone: VOIP, note: 'test line' },
    });
    expect(listed).toMatchObject({ status: 201, body: { phone: VOIP, note: 'test line' } });
    expect((await validate(VOIP)).body).toMatchObject({ status: 'VALID', whitelisted: true });
    expect((await call('POST', '/api/user-service/mobile-auth/send-code', { body: { phone: VOIP } })).status).toBe(200);
    expect((await call('DELETE', `/api/user-service/mobile-auth/whitelist/${listed.body.id}`, { token: admin })).status).toBe(200);
    expect((await validate(VOIP)).body).toMatchObject({ status: 'VOIP' });
    expect((await call('DELETE', `/api/user-service/mobile-auth/whitelist/${listed.body.id}`, { token: admin })).status).toBe(404);

    const recents = await call('GET', '/api/user-service/phone-validation/recents?limit=3', { token: admin });
    expect(recents.status).toBe(200);
    expect(recents.body.map((v: { phone: string; status: string }) => [v.phone, v.status])).toEqual([
      [VOIP, 'VOIP'],
      [VOIP, 'VALID'],
      [VOIP, 'VALID'],
    ]);
    const cleared = await call('DELETE', '/api/user-service/phone-validation/recents', { token: admin });
    expect(cleared.body.cleared).toBeGreaterThan(5);
    expect((await call('GET', '/api/user-service/phone-validation/recents', { token: admin })).body).toEqual([]);
  });

  it('limits the codes sent to one number and tells the fraud constants', async () => {
    const admin = await signedToken('admin');
    const constants = await call('GET', '/api/user-service/phone-validation/fraudConstants', { token: admin });
    expect(constants).toMatchObject({
      status: 200,
      body: {
        maxCodesPerPhone: CODES_PER_NUMBER,
        codesWindowSeconds: 3600,
        allowedLineTypes: ['mobile'],
        voipLineTypes: ['fixedVoip', 'nonFixedVoip'],
      },
    });
    const phone = freshPhone();
    for (let i = 0; i < CODES_PER_NUMBER; i += 1) {
      expect((await call('POST', '/api/user-service/mobile-auth/send-code', { body: { phone } })).status).toBe(200);
    }
    const throttled = await call('POST', '/api/user-service/mobile-auth/send-code', { body: { phone } });
    expect(constants.body).toMatchObject({ maxValidationsPerCaller: VALIDATIONS_PER_CALLER, validationsWindowSeconds: 3600 });
    expect(throttled).toMatchObject({
      status: 429,
      body: { statusCode: 429, message: expect.stringMatching(/^Too many codes were sent to this number/) },
    });
    expect(throttled.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('limits the numbers one caller validates (each costs a lookup)', async () => {
    const user = await signUp();
    const validate = () =>
      call('GET', `/api/user-service/phone-validation/validate/${encodeURIComponent(freshPhone())}`, { token: user.token });
    for (let i = 0; i < VALIDATIONS_PER_CALLER; i += 1) expect((await validate()).status).toBe(200);
    expect(await validate()).toMatchObject({ status: 429, body: { message: expect.stringMatching(/^Too many phone numbers validated/) } });
    // Another caller has an allowance of their own.
    expect(
      (
        await call('GET', `/api/user-service/phone-validation/validate/${encodeURIComponent(freshPhone())}`, {
          token: (await signUp()).token,
        })
      ).status,
    ).toBe(200);
  });

  it('lets admins list, add, read and delete the numbers accounts sign in with', async () => {
    const admin = await signedToken('admin');
    const phone = freshPhone();
    const { body: grant } = await signInByPhone(phone);
    expect(grant.created).toBe(true);
    const listed = await call('GET', `/api/user-service/admin/phoneNumbers?userUuid=${grant.userUuid}`, { token: admin });
    expect(listed).toMatchObject({ status: 200, body: { total: 1, data: [{ userUuid: grant.userUuid, phone }] } });

    const other = await signUp();
    const taken = await call('POST', '/api/user-service/admin/phoneNumbers', { token: admin, body: { userUuid: other.userUuid, phone } });
    expect(taken).toMatchObject({ status: 403, body: { message: 'This phone number is already registered' } });
    const unknownUser = await call('POST', '/api/user-service/admin/phoneNumbers', {
      token: admin,
      body: { userUuid: '00000000-0000-4000-8000-000000000000', phone: freshPhone() },
    });
    expect(unknownUser).toMatchObject({ status: 404, body: { message: 'User profile not found' } });

    const second = freshPhone();
    const added = await call('POST', '/api/user-service/admin/phoneNumbers', {
      token: admin,
      body: { userUuid: other.userUuid, phone: second },
    });
    expect(added).toMatchObject({ status: 201, body: { userUuid: other.userUuid, phone: second } });
    expect(await call('GET', `/api/user-service/admin/phoneNumbers/${added.body.id}`, { token: admin })).toMatchObject({
      status: 200,
      body: added.body,
    });
    // The number now signs that account in.
    expect((await signInByPhone(second)).body).toMatchObject({ userUuid: other.userUuid, created: false });
    expect((await call('DELETE', `/api/user-service/admin/phoneNumbers/${added.body.id}`, { token: admin })).status).toBe(200);
    expect(await call('GET', `/api/user-service/admin/phoneNumbers/${added.body.id}`, { token: admin })).toMatchObject({
      status: 404,
      body: { message: 'Phone number not found' },
    });
  });

  it('verifies an identity by code (stored as sms), keeps it to its owner, and lets admins and the owner manage it', async () => {
    const owner = await signUp();
    const other = await signUp();
    const admin = await signedToken('admin');
    const phone = freshPhone();
    const requested = await call('POST', '/api/user-service/api/v1/identity-verifications/request', {
      token: owner.token,
      body: { phone, channel: 'whatsapp' },
    });
    expect(requested).toMatchObject({ status: 200, body: { phone, channel: 'whatsapp', status: 'pending' } });
    const wrong = await call('POST', '/api/user-service/api/v1/identity-verifications/verify', {
      token: owner.token,
      body: { phone, code: 'abc' },
    });
    expect(wrong.status).toBe(401);
    const verified = await call('POST', '/api/user-service/api/v1/identity-verifications/verify', {
      token: owner.token,
      body: { phone, code: platform().twilio.lastCode(phone) },
    });
    expect(verified).toMatchObject({ status: 200, body: { userUuid: owner.userUuid, channel: 'sms', phone } });

    expect((await call('GET', '/api/user-service/api/v1/user-identities', { token: owner.token })).body).toEqual([verified.body]);
    expect((await call('GET', '/api/user-service/api/v1/user-identities?channel=whatsapp', { token: owner.token })).body).toEqual([]);
    expect((await call('GET', '/api/user-service/api/v1/user-identities', { token: other.token })).body).toEqual([]);
    expect((await call('GET', `/api/user-service/api/v1/user-identities?userUuid=${owner.userUuid}`, { token: other.token })).status).toBe(
      403,
    );
    const asAdmin = await call('GET', `/api/user-service/api/v1/user-identities?userUuid=${owner.userUuid}&channel=sms&limit=5`, {
      token: admin,
    });
    expect(asAdmin.body).toEqual([verified.body]);

    // The number is the owner's identity: another account cannot verify it too.
    await call('POST', '/api/user-service/api/v1/identity-verifications/request', { token: other.token, body: { phone } });
    const stolen = await call('POST', '/api/user-service/api/v1/identity-verifications/verify', {
      token: other.token,
      body: { phone, code: platform().twilio.lastCode(phone) },
    });
    expect(stolen).toMatchObject({ status: 403, body: { message: 'This phone number is already verified for another user' } });
    const guest = (await call('GET', '/api/user-service/auth/guest')).body.accessToken;
    expect(
      (await call('POST', '/api/user-service/api/v1/identity-verifications/request', { token: guest, body: { phone: freshPhone() } }))
        .status,
    ).toBe(403);
    const voip = await call('POST', '/api/user-service/api/v1/identity-verifications/request', {
      token: owner.token,
      body: { phone: VOIP },
    });
    expect(voip).toMatchObject({ status: 400, body: { message: PHONE_INVALID } });

    const created = await call('POST', '/api/user-service/api/v1/user-identities', {
      token: admin,
      body: { userUuid: other.userUuid, channel: 'sms', phone: freshPhone() },
    });
    expect(created).toMatchObject({ status: 201, body: { userUuid: other.userUuid, channel: 'sms' } });
    expect((await call('DELETE', `/api/user-service/api/v1/user-identities/${created.body.id}`, { token: owner.token })).status).toBe(404);
    expect((await call('DELETE', `/api/user-service/api/v1/user-identities/${created.body.id}`, { token: other.token })).status).toBe(200);
    expect((await call('DELETE', `/api/user-service/api/v1/user-identities/${verified.body.id}`, { token: admin })).status).toBe(200);
    expect((await call('GET', '/api/user-service/api/v1/user-identities', { token: owner.token })).body).toEqual([]);
  });

  it('answers 503 while Twilio fails, and 400 for a channel other than sms or whatsapp', async () => {
    const phone = freshPhone();
    const badChannel = await call('POST', '/api/user-service/mobile-auth/send-code', { body: { phone, channel: 'call' } });
    expect(badChannel.status).toBe(400);
    platform().twilio.failNext(503, 1, 'verify');
    const verifyDown = await call('POST', '/api/user-service/mobile-auth/send-code', { body: { phone } });
    expect(verifyDown).toMatchObject({ status: 503, body: { message: 'The SMS provider is unavailable: try again later' } });
    platform().twilio.failNext(500, 1, 'lookup');
    const lookupDown = await call('POST', '/api/user-service/mobile-auth/send-code', { body: { phone } });
    expect(lookupDown).toMatchObject({ status: 503, body: { message: 'The phone number could not be validated now: try again later' } });
    expect((await call('POST', '/api/user-service/mobile-auth/send-code', { body: { phone } })).status).toBe(200);
  });
});

describe('phone codes per client address at the BFF', () => {
  const { call } = usePlatform({ bffLimits: { LIMIT_PHONE_CODES_PER_ADDRESS: { points: 2, durationSeconds: 3600, blockSeconds: 0 } } });

  it('refuses a third code asked from one address, whatever the numbers (SMS pumping)', async () => {
    // The BFF trusts X-Forwarded-For from loopback: each test address is a client of its own.
    const from = (address: string, phone: string) =>
      call('POST', '/api/user-service/mobile-auth/send-code', { body: { phone }, headers: { 'x-forwarded-for': address } });
    const address = `198.51.100.${randomInt(1, 255)}`;
    expect((await from(address, freshPhone())).status).toBe(200);
    expect((await from(address, freshPhone())).status).toBe(200);
    const refused = await from(address, freshPhone());
    expect(refused).toMatchObject({ status: 429, body: { message: expect.stringMatching(/^Too many phone codes from this address/) } });
    expect((await from(`203.0.113.${randomInt(1, 255)}`, freshPhone())).status).toBe(200);
  });
});
