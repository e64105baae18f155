import { ERROR_CODES, type Caller, forbidden, isAdminRole, isUuid, notFound } from '@spinroom/platform';
import { PROFILE_NOT_FOUND } from '../accounts.js';
import type { PhoneCodes } from './codes.js';
import { IDENTITY_CHANNEL, requirePhone } from './phones.js';
import { PhoneTakenError, UnknownAccountError, type MobileStore, type UserIdentity } from './ports.js';

export const IDENTITY_TAKEN = 'This phone number is already verified for another user';
export const IDENTITY_NOT_FOUND = 'User identity not found';
const GUESTS_CANNOT_VERIFY = 'Guests cannot verify an identity';

/** Admins and other services may read and write anyone's identities. */
function actsForAnyone(caller: Caller): boolean {
  return caller.kind === 'service' || isAdminRole(caller.role);
}

/**
 * Identity verification: a code to a number the caller claims; the right code
 * stores the number as the caller's identity (channel sms, whichever channel
 * carried the code). One account per verified number.
 */
export class Identities {
  constructor(
    private readonly codes: PhoneCodes,
    private readonly store: MobileStore,
  ) {}

  request(caller: Caller, phone: string, channel: string) {
    this.requireAccount(caller);
    return this.codes.send(phone, channel);
  }

  async verify(caller: Caller, phone: string, code: string): Promise<UserIdentity> {
    this.requireAccount(caller);
    const verified = await this.codes.check(phone, code);
    return this.add(caller.userUuid, verified);
  }

  async create(caller: Caller, input: { userUuid: string; channel: string; phone: string }): Promise<UserIdentity> {
    if (!actsForAnyone(caller)) throw forbidden();
    if (input.channel !== IDENTITY_CHANNEL) throw forbidden('channel must be sms');
    if (!isUuid(input.userUuid)) throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
    return this.add(input.userUuid, requirePhone(input.phone));
  }

  /** The caller's own identities; admins and services name any user (or none: every user's). */
  async list(caller: Caller, query: { id?: string; userUuid?: string; channel?: string; limit?: number }): Promise<UserIdentity[]> {
    const anyone = actsForAnyone(caller);
    if (!anyone && query.userUuid !== undefined && query.userUuid !== caller.userUuid) throw forbidden();
    const userUuid = anyone ? query.userUuid : caller.userUuid;
    if ((query.channel !== undefined && query.channel !== IDENTITY_CHANNEL) || (query.id !== undefined && !isUuid(query.id))) return [];
    if (userUuid !== undefined && !isUuid(userUuid)) return [];
    return this.store.listIdentities({ id: query.id, userUuid, limit: Math.min(Math.max(query.limit ?? 50, 1), 200) });
  }

  async delete(caller: Caller, id: string): Promise<void> {
    const identity = isUuid(id) ? await this.store.getIdentity(id) : null;
    // Another's identity is as unknown to a user as one that does not exist.
    if (!identity || (identity.userUuid !== caller.userUuid && !actsForAnyone(caller))) throw notFound(IDENTITY_NOT_FOUND);
    await this.store.deleteIdentity(id);
  }

  private async add(userUuid: string, phone: string): Promise<UserIdentity> {
    try {
      return await this.store.addIdentity(userUuid, phone);
    } catch (error) {
      if (error instanceof PhoneTakenError) throw forbidden(IDENTITY_TAKEN);
      if (error instanceof UnknownAccountError) throw notFound(PROFILE_NOT_FOUND, ERROR_CODES.userProfileNotFound);
      throw error;
    }
  }

  private requireAccount(caller: Caller): void {
    if (caller.kind === 'guest' || caller.kind === 'service') throw forbidden(GUESTS_CANNOT_VERIFY);
  }
}
