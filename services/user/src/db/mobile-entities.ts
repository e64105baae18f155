import { defineEntity, p } from '@mikro-orm/postgresql';
import type { ValidationStatus } from '../domain/mobile/phones.js';

/** `phone_number`: a number an account signs in with (one account per number). */
export const PhoneNumberEntity = defineEntity({
  name: 'PhoneNumber',
  tableName: 'phone_number',
  properties: {
    id: p.uuid().primary(),
    userUuid: p.uuid(),
    phone: p.string().unique(),
    createdAt: p.datetime(),
  },
});

/** `user_identity`: a number verified by code as an account's identity (channel sms). */
export const UserIdentityEntity = defineEntity({
  name: 'UserIdentity',
  tableName: 'user_identity',
  properties: {
    id: p.uuid().primary(),
    userUuid: p.uuid(),
    channel: p.string().$type<'sms'>(),
    phone: p.string(),
    createdAt: p.datetime(),
  },
});

/** `phone_whitelist`: numbers the admins allow despite the validation's checks. */
export const PhoneWhitelistEntity = defineEntity({
  name: 'PhoneWhitelist',
  tableName: 'phone_whitelist',
  properties: {
    id: p.uuid().primary(),
    phone: p.string().unique(),
    note: p.string().nullable(),
    createdBy: p.uuid(),
    createdAt: p.datetime(),
  },
});

/** `phone_validation`: the latest validations, for the admins' recents. */
export const PhoneValidationEntity = defineEntity({
  name: 'PhoneValidation',
  tableName: 'phone_validation',
  properties: {
    id: p.uuid().primary(),
    phone: p.string(),
    status: p.string().$type<ValidationStatus>(),
    lineType: p.string().nullable(),
    countryCode: p.string().nullable(),
    whitelisted: p.boolean(),
    validatedAt: p.datetime(),
  },
});

export const mobileEntities = [PhoneNumberEntity, UserIdentityEntity, PhoneWhitelistEntity, PhoneValidationEntity];
