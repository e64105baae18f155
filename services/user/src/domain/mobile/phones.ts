import { ERROR_CODES, badRequest } from '@spinroom/platform';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** Spec 002's message for a number the platform refuses, word for word. */
export const PHONE_INVALID = 'Phone number is invalid. Only real, non-VoIP mobile numbers are allowed.';

export const CODE_CHANNELS = ['sms', 'whatsapp'] as const;
export type CodeChannel = (typeof CODE_CHANNELS)[number];
/** A stored identity's channel (spec 000: sms only), whichever channel carried its code. */
export const IDENTITY_CHANNEL = 'sms';

export const VALIDATION_STATUSES = ['VALID', 'INVALID', 'VOIP', 'VALIDATION_ERROR'] as const;
export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];

/** Line types (as the provider's lookup names them) a code may be sent to. */
export const ALLOWED_LINE_TYPES: readonly string[] = ['mobile'];
/** Line types that are VoIP: refused as VOIP rather than INVALID. */
export const VOIP_LINE_TYPES: readonly string[] = ['fixedVoip', 'nonFixedVoip'];

export function parseChannel(channel: string): CodeChannel {
  if (!(CODE_CHANNELS as readonly string[]).includes(channel))
    throw badRequest('channel must be one of the following values: sms, whatsapp');
  return channel as CodeChannel;
}

/**
 * A number as stored and sent to the provider: E.164 (`+` and 7 to 15 digits),
 * from what a person typed (spaces, dashes, dots and brackets dropped).
 * undefined when it cannot be one; whether the number exists is not asked here.
 */
export function canonicalPhone(phone: string): string | undefined {
  if (phone.length > 64) return undefined;
  const compact = phone.replace(/[\s().-]/g, '');
  return /^\+[1-9]\d{6,14}$/.test(compact) ? compact : undefined;
}

/** The canonical number, or 400 with spec 002's message. */
export function requirePhone(phone: string): string {
  const canonical = canonicalPhone(phone);
  if (!canonical) throw badRequest(PHONE_INVALID, ERROR_CODES.userPhoneInvalid);
  return canonical;
}

/** The number's country when libphonenumber-js finds it a valid number of its numbering plan; undefined otherwise. */
export function numberingPlanCountry(e164: string): { country?: string } | undefined {
  const parsed = parsePhoneNumberFromString(e164);
  return parsed?.isValid() ? { country: parsed.country } : undefined;
}

/** What the lookup of a valid number's line type says, as a validation status. */
export function statusOfLine(lookup: { valid: boolean; lineType?: string | null }): ValidationStatus {
  if (!lookup.valid) return 'INVALID';
  if (lookup.lineType && VOIP_LINE_TYPES.includes(lookup.lineType)) return 'VOIP';
  if (lookup.lineType && ALLOWED_LINE_TYPES.includes(lookup.lineType)) return 'VALID';
  return 'INVALID'; // landlines, toll-free, pagers, unknown: no code can be trusted to reach a person's phone
}
