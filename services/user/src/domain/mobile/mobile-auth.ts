import { randomInt } from 'node:crypto';
import { ERROR_CODES, type Caller, forbidden, isUuid, notFound } from '@spinroom/platform';
import { type AccessGrant, PROFILE_NOT_FOUND } from '../accounts.js';
import type { PhoneCodes } from './codes.js';
import { requirePhone } from './phones.js';
import { PhoneTakenError, UnknownAccountError, type MobileStore, type PhoneNumber, type WhitelistedPhone } from './ports.js';
import { requireAdmin } from './validation.js';

export const PHONE_TAKEN = 'This phone number is already registered';
export const PHONE_NUMBER_NOT_FOUND = 'Phone number not found';

/** The account behind a uuid, signed in (bans and deactivation refuse it there). */
export type GrantAccess = (userUuid: string) => Promise<AccessGrant>;

/**
 * Sign-in by phone: a right code signs in the account that holds the number,
 * or signs a new one up with it. Admins keep the whitelist and the numbers.
 */
export class MobileAuth {
  constructor(
    private readonly codes: PhoneCodes,
    private readonly store: MobileStore,
    private readonly grantAccess: GrantAccess,
  ) {}

  sendCode(phone: string, channel: string) {
    return this.codes.send(phone, channel);
  }

  async verifyCode(phone: string, code: string): Promise<{ grant: AccessGrant; created: boolean }> {
    const verified = await this.codes.check(phone, code);
    const existing = await this.store.findPhoneNumber(verified);
    if (existing) return { grant: await this.grantAccess(existing.userUuid), created: false };
    try {
      const { userUuid } = await this.store.createPhoneAccount(verified, phoneNickname());
      return { grant: await this.grantAccess(userUuid), created: true };
    } catch (error) {
      if (!(error instanceof PhoneTakenError)) throw error;
      // Another sign-up (or an admin) took the number in between: that account is the number's.
      const taken = await this.store.findPhoneNumber(verified);
      if (!taken) throw error;
      return { grant: await this.grantAccess(taken.userUuid), created: false };
    }
  }

  async whitelist(caller: Caller, phone: string, note?: string): Promise<WhitelistedPhone> {
    requireAdmin(caller);
    return this.store.addToWhitelist({ phone: requirePhone(phone), note: note?.trim() || undefined, createdBy: caller.userUuid });
  }

  async removeFromWhitelist(caller: Caller, id: string): Promise<void> {
    requireAdmin(caller);
    if (!isUuid(id) || !(await this.store.removeFromWhitelist(id))) throw notFound('Whitelisted phone number not found');
  }

  async listPhoneNumbers(caller: Caller, filter: { userUuid?: string; limit?: number; offset?: number }) {
    requireAdmin(caller);
    if (filter.userUuid !== undefined && !isUuid(filter.userUuid)) return { phoneNumbers: [], total: 0 };
    return this.store.listPhoneNumbers({
      userUuid: filter.userUuid,
      limit: Math.min(Math.max(filter.limit ?? 50, 1), 200),
      offset: Math.max(filter.offset ?? 0, 0),
    });
  }

  async addPhoneNumber(caller: Caller, userUuid: string, phone: string): Promise<PhoneNumber> {
    requireAdmin(caller);
    const canonical = requirePhone(phone);
    if (!isUuid(userUuid)) throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
    try {
      return await this.store.addPhoneNumber(userUuid, canonical);
    } catch (error) {
      if (error instanceof PhoneTakenError) throw forbidden(PHONE_TAKEN, ERROR_CODES.userPhoneTaken);
      if (error instanceof UnknownAccountError) throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
      throw error;
    }
  }

  async phoneNumber(caller: Caller, id: string): Promise<PhoneNumber> {
    requireAdmin(caller);
    const found = isUuid(id) ? await this.store.getPhoneNumber(id) : null;
    if (!found) throw notFound(PHONE_NUMBER_NOT_FOUND);
    return found;
  }

  async deletePhoneNumber(caller: Caller, id: string): Promise<void> {
    requireAdmin(caller);
    if (!isUuid(id) || !(await this.store.deletePhoneNumber(id))) throw notFound(PHONE_NUMBER_NOT_FOUND);
  }
}

/** A new phone account's nickname: nothing of the number shows on a profile. */
export function phoneNickname(): string {
  return `listener${randomInt(100_000, 1_000_000)}`;
}
