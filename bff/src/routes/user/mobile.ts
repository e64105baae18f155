import type { MobileServiceClient, PhoneNumber, PhoneValidation, UserIdentity, WhitelistedPhone } from '@spinroom/contracts/user/v1/mobile';
import type { PromiseClient } from '@spinroom/platform/core';
import { z } from 'zod';
import { type BffLimits, clientAddress } from '../../http/limits.js';
import { route, type RouteDeps } from '../../http/route.js';
import { present } from '../../http/upstream.js';
import { AccessGrantSchema } from './schemas.js';

export type MobileClient = PromiseClient<MobileServiceClient>;

const BASE = '/api/user-service';
const Phone = z
  .string()
  .min(1)
  .max(64)
  .openapi({ example: '+14155552671', description: 'E.164, as a person types it (spaces and dashes are dropped)' });
const Channel = z.enum(['sms', 'whatsapp']);
const Id = z.object({ id: z.uuid() });
const Empty = z.object({});
const limit = (max: number) => z.coerce.number().int().min(1).max(max).optional();

const CodeSentSchema = z.object({ phone: z.string(), channel: Channel, status: z.string() }).openapi('PhoneCodeSent');
const WhitelistedPhoneSchema = z
  .object({ id: z.uuid(), phone: z.string(), note: z.string().nullable(), createdBy: z.uuid(), createdAt: z.string() })
  .openapi('WhitelistedPhone');
const PhoneValidationSchema = z
  .object({
    phone: z.string(),
    status: z.enum(['VALID', 'INVALID', 'VOIP', 'VALIDATION_ERROR']),
    lineType: z.string().nullable(),
    countryCode: z.string().nullable(),
    whitelisted: z.boolean(),
    validatedAt: z.string(),
  })
  .openapi('PhoneValidation');
const PhoneNumberSchema = z.object({ id: z.uuid(), userUuid: z.uuid(), phone: z.string(), createdAt: z.string() }).openapi('PhoneNumber');
const UserIdentitySchema = z
  .object({ id: z.uuid(), userUuid: z.uuid(), channel: z.literal('sms'), phone: z.string(), createdAt: z.string() })
  .openapi('UserIdentity');

const iso = (date: Date | undefined) => present(date).toISOString();
const whitelistedJson = (e: WhitelistedPhone) => ({
  id: e.id,
  phone: e.phone,
  note: e.note ?? null,
  createdBy: e.createdBy,
  createdAt: iso(e.createdAt),
});
const validationJson = (v: PhoneValidation) => ({
  phone: v.phone,
  status: v.status as z.infer<typeof PhoneValidationSchema>['status'],
  lineType: v.lineType ?? null,
  countryCode: v.countryCode ?? null,
  whitelisted: v.whitelisted,
  validatedAt: iso(v.validatedAt),
});
const phoneNumberJson = (p: PhoneNumber) => ({ id: p.id, userUuid: p.userUuid, phone: p.phone, createdAt: iso(p.createdAt) });
const identityJson = (i: UserIdentity) => ({
  id: i.id,
  userUuid: i.userUuid,
  channel: 'sms' as const,
  phone: i.phone,
  createdAt: iso(i.createdAt),
});

/** Phones (spec 000 "Mobile", "Identity verification", "User identities"): who may do what is the user service's to decide. */
export function mobileRoutes(deps: RouteDeps, mobile: MobileClient, limits: Pick<BffLimits, 'phoneCodes'>): void {
  route(deps, {
    method: 'post',
    path: `${BASE}/mobile-auth/send-code`,
    summary: 'Send a sign-in code by SMS or WhatsApp to a valid mobile number',
    tags: ['mobile'],
    auth: 'public',
    body: z.object({ phone: Phone, channel: Channel.default('sms') }).openapi('SendPhoneCode'),
    response: CodeSentSchema,
    errors: [429, 503],
    handler: async ({ body, req }) => {
      await limits.phoneCodes.consume(clientAddress(req));
      const sent = await mobile.sendCode(body);
      return { phone: sent.phone, channel: sent.channel as 'sms' | 'whatsapp', status: sent.status };
    },
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/mobile-auth/verify-code`,
    summary: 'Sign in with a phone code (a new number signs up); `created` tells which',
    tags: ['mobile'],
    auth: 'public',
    body: z.object({ phone: Phone, code: z.string().min(1).max(16) }).openapi('VerifyPhoneCode'),
    response: AccessGrantSchema.extend({ created: z.boolean() }).openapi('PhoneAccessGrant'),
    errors: [401, 403, 429, 503],
    handler: async ({ body }) => {
      const { grant, created } = await mobile.verifyCode(body);
      return { ...present(grant), created };
    },
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/mobile-auth/whitelist`,
    summary: 'Allow a number despite the validation (admins)',
    tags: ['mobile'],
    status: 201,
    body: z.object({ phone: Phone, note: z.string().max(255).optional() }).openapi('WhitelistPhone'),
    response: WhitelistedPhoneSchema,
    errors: [403],
    handler: async ({ body }) => whitelistedJson(present((await mobile.addWhitelistedPhone(body)).entry)),
  });

  route(deps, {
    method: 'delete',
    path: `${BASE}/mobile-auth/whitelist/{id}`,
    summary: 'Remove a number from the whitelist (admins)',
    tags: ['mobile'],
    params: Id,
    response: Empty,
    errors: [403, 404],
    handler: async ({ params }) => {
      await mobile.removeWhitelistedPhone(params);
      return {};
    },
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/phone-validation/validate/{phone}`,
    summary: 'Validate a number: VALID (a real mobile number or whitelisted), INVALID, VOIP or VALIDATION_ERROR',
    tags: ['mobile'],
    params: z.object({ phone: Phone }),
    response: PhoneValidationSchema,
    errors: [429],
    handler: async ({ params }) => validationJson(present((await mobile.validatePhone(params)).validation)),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/phone-validation/recents`,
    summary: 'The latest validations, newest first (admins)',
    tags: ['mobile'],
    query: z.object({ limit: limit(200) }),
    response: z.array(PhoneValidationSchema),
    errors: [403],
    handler: async ({ query }) => (await mobile.listRecentValidations(query)).validations.map(validationJson),
  });

  route(deps, {
    method: 'delete',
    path: `${BASE}/phone-validation/recents`,
    summary: 'Forget the recent validations (admins)',
    tags: ['mobile'],
    response: z.object({ cleared: z.number().int() }),
    errors: [403],
    handler: async () => ({ cleared: (await mobile.clearRecentValidations({})).cleared }),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/phone-validation/fraudConstants`,
    summary: 'The limits and line types the phone checks use (admins)',
    tags: ['mobile'],
    response: z
      .object({
        maxCodesPerPhone: z.number().int(),
        codesWindowSeconds: z.number().int(),
        maxCodeChecksPerPhone: z.number().int(),
        codeChecksWindowSeconds: z.number().int(),
        allowedLineTypes: z.array(z.string()),
        voipLineTypes: z.array(z.string()),
        recentValidationsKept: z.number().int(),
        maxValidationsPerCaller: z.number().int(),
        validationsWindowSeconds: z.number().int(),
      })
      .openapi('PhoneFraudConstants'),
    errors: [403],
    handler: async () => mobile.getFraudConstants({}),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/admin/phoneNumbers`,
    summary: 'The numbers accounts sign in with, newest first (admins)',
    tags: ['mobile'],
    query: z.object({ userUuid: z.uuid().optional(), limit: limit(200), offset: z.coerce.number().int().min(0).max(1_000_000).optional() }),
    response: z.object({ data: z.array(PhoneNumberSchema), total: z.number().int() }).openapi('PhoneNumberPage'),
    errors: [403],
    handler: async ({ query }) => {
      const { phoneNumbers, total } = await mobile.listPhoneNumbers(query);
      return { data: phoneNumbers.map(phoneNumberJson), total };
    },
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/admin/phoneNumbers`,
    summary: "Give an account a number to sign in with (admins); 403 when it is another account's",
    tags: ['mobile'],
    status: 201,
    body: z.object({ userUuid: z.uuid(), phone: Phone }).openapi('NewPhoneNumber'),
    response: PhoneNumberSchema,
    errors: [403, 404],
    handler: async ({ body }) => phoneNumberJson(present((await mobile.createPhoneNumber(body)).phoneNumber)),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/admin/phoneNumbers/{id}`,
    summary: 'One account number (admins)',
    tags: ['mobile'],
    params: Id,
    response: PhoneNumberSchema,
    errors: [403, 404],
    handler: async ({ params }) => phoneNumberJson(present((await mobile.getPhoneNumber(params)).phoneNumber)),
  });

  route(deps, {
    method: 'delete',
    path: `${BASE}/admin/phoneNumbers/{id}`,
    summary: 'Remove an account number (admins)',
    tags: ['mobile'],
    params: Id,
    response: Empty,
    errors: [403, 404],
    handler: async ({ params }) => {
      await mobile.deletePhoneNumber(params);
      return {};
    },
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/api/v1/identity-verifications/request`,
    summary: 'Send a code to the number the caller claims as their identity (not guests)',
    tags: ['mobile'],
    body: z.object({ phone: Phone, channel: Channel.default('sms') }).openapi('IdentityVerificationRequest'),
    response: CodeSentSchema,
    errors: [403, 429, 503],
    handler: async ({ body, req }) => {
      await limits.phoneCodes.consume(clientAddress(req));
      const sent = await mobile.requestIdentityVerification(body);
      return { phone: sent.phone, channel: sent.channel as 'sms' | 'whatsapp', status: sent.status };
    },
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/api/v1/identity-verifications/verify`,
    summary: "A right code stores the number as the caller's identity (channel sms)",
    tags: ['mobile'],
    body: z.object({ phone: Phone, code: z.string().min(1).max(16) }).openapi('IdentityVerification'),
    response: UserIdentitySchema,
    errors: [401, 403, 429, 503],
    handler: async ({ body }) => identityJson(present((await mobile.verifyIdentity(body)).identity)),
  });

  route(deps, {
    method: 'post',
    path: `${BASE}/api/v1/user-identities`,
    summary: 'Store an identity without a code (admins and services)',
    tags: ['mobile'],
    status: 201,
    body: z.object({ userUuid: z.uuid(), channel: z.literal('sms').default('sms'), phone: Phone }).openapi('NewUserIdentity'),
    response: UserIdentitySchema,
    errors: [403, 404],
    handler: async ({ body }) => identityJson(present((await mobile.createUserIdentity(body)).identity)),
  });

  route(deps, {
    method: 'get',
    path: `${BASE}/api/v1/user-identities`,
    summary: "Identities: the caller's own; admins and services any user's",
    tags: ['mobile'],
    query: z.object({ id: z.uuid().optional(), userUuid: z.uuid().optional(), channel: Channel.optional(), limit: limit(200) }),
    response: z.array(UserIdentitySchema),
    errors: [403],
    handler: async ({ query }) => (await mobile.listUserIdentities(query)).identities.map(identityJson),
  });

  route(deps, {
    method: 'delete',
    path: `${BASE}/api/v1/user-identities/{id}`,
    summary: 'Delete an identity (its owner, admins and services)',
    tags: ['mobile'],
    params: Id,
    response: Empty,
    errors: [404],
    handler: async ({ params }) => {
      await mobile.deleteUserIdentity(params);
      return {};
    },
  });
}
