import { env } from '@spinroom/platform/core';
import { z } from 'zod';

/** An unset or blank variable is absent (an env file's `NAME=` turns the provider off). */
const blankIsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankIsUnset, schema.optional());

/**
 * The phone area's variables: Twilio (Verify sends and checks the codes,
 * Lookup tells a number's line type; phone codes are off, with a 503, until
 * all three credentials are set) and the limits on codes per number.
 */
export const mobileConfig = {
  TWILIO_ACCOUNT_SID: optional(z.string().regex(/^AC[0-9a-fA-F]{32}$/, 'must be an account SID (AC and 32 hex digits)')),
  TWILIO_AUTH_TOKEN: optional(z.string().min(1)),
  TWILIO_VERIFY_SERVICE_SID: optional(z.string().regex(/^VA[0-9a-fA-F]{32}$/, 'must be a Verify service SID (VA and 32 hex digits)')),
  /** Where Twilio's Verify and Lookup hosts are reached instead (the local stand-in of `npm start` and the tests). */
  TWILIO_API_URL: optional(env.url(['http', 'https'])),
  TWILIO_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  /** Codes sent to one number: 5 an hour (README, Limits). */
  LIMIT_PHONE_CODES_PER_NUMBER: env.limit('5/1h'),
  /** Wrong codes tried for one number: 10 an hour, then refused for an hour. */
  LIMIT_PHONE_CODE_FAILURES_PER_NUMBER: env.limit('10/1h/1h'),
  /** Numbers one caller may validate (each costs a Lookup): 60 an hour. */
  LIMIT_PHONE_VALIDATIONS_PER_CALLER: env.limit('60/1h'),
};
