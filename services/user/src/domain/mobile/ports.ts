import type { CodeChannel, ValidationStatus } from './phones.js';

/**
 * The code provider (Twilio Verify in production): it makes the code, sends it
 * and checks it, so the service never holds one. Adapters raise AppErrors: 400
 * with spec 002's message when the provider refuses the number, 429 when it
 * throttles it, 503 when it cannot be reached.
 */
export interface CodeSender {
  send(phone: string, channel: CodeChannel): Promise<{ status: string }>;
  /** true when `code` is the pending code of `phone` (the verification is then used up). */
  check(phone: string, code: string): Promise<boolean>;
}

/** The line-type lookup (Twilio Lookup v2 in production); throws when the provider fails. */
export interface LineTypeLookup {
  lookUp(phone: string): Promise<{ valid: boolean; lineType?: string | null; countryCode?: string | null }>;
}

export interface PhoneValidation {
  phone: string;
  status: ValidationStatus;
  lineType?: string;
  countryCode?: string;
  whitelisted: boolean;
  validatedAt: Date;
}

export interface WhitelistedPhone {
  id: string;
  phone: string;
  note?: string;
  createdBy: string;
  createdAt: Date;
}

export interface PhoneNumber {
  id: string;
  userUuid: string;
  phone: string;
  createdAt: Date;
}

export interface UserIdentity {
  id: string;
  userUuid: string;
  channel: 'sms';
  phone: string;
  createdAt: Date;
}

/** Thrown by stores when a number (or identity) already belongs to an account. */
export class PhoneTakenError extends Error {}

/** Thrown by stores when the account a row would belong to does not exist. */
export class UnknownAccountError extends Error {}

/** Where the phone area keeps its rows. The database implementation lives in db/mobile-store.ts. */
export interface MobileStore {
  isWhitelisted(phone: string): Promise<boolean>;
  /** Adds the number (or answers the existing entry). */
  addToWhitelist(entry: Omit<WhitelistedPhone, 'id' | 'createdAt'>): Promise<WhitelistedPhone>;
  removeFromWhitelist(id: string): Promise<boolean>;

  /** Records a validation, keeping only the latest `keep`. */
  recordValidation(validation: PhoneValidation, keep: number): Promise<void>;
  recentValidations(limit: number): Promise<PhoneValidation[]>;
  clearValidations(): Promise<number>;

  findPhoneNumber(phone: string): Promise<PhoneNumber | null>;
  getPhoneNumber(id: string): Promise<PhoneNumber | null>;
  listPhoneNumbers(filter: { userUuid?: string; limit: number; offset: number }): Promise<{ phoneNumbers: PhoneNumber[]; total: number }>;
  /** Throws PhoneTakenError when the number is an account's already, UnknownAccountError when there is no such account. */
  addPhoneNumber(userUuid: string, phone: string): Promise<PhoneNumber>;
  deletePhoneNumber(id: string): Promise<boolean>;
  /** A new account signed up by its number: the account, the number and the sign-up event in one transaction (PhoneTakenError on a race). */
  createPhoneAccount(phone: string, nickname: string): Promise<{ userUuid: string }>;

  /**
   * Throws PhoneTakenError when another account holds the identity (answers the
   * existing one when it is the same account's), UnknownAccountError when there is no such account.
   */
  addIdentity(userUuid: string, phone: string): Promise<UserIdentity>;
  getIdentity(id: string): Promise<UserIdentity | null>;
  listIdentities(filter: { id?: string; userUuid?: string; limit: number }): Promise<UserIdentity[]>;
  deleteIdentity(id: string): Promise<boolean>;
}
