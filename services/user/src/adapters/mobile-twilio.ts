import { ERROR_CODES, badRequest, tooManyRequests, unavailable } from '@spinroom/platform';
import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient.js';
import { type CodeChannel, PHONE_INVALID } from '../domain/mobile/phones.js';
import type { CodeSender, LineTypeLookup } from '../domain/mobile/ports.js';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** The Verify service (VA...) that makes, sends and checks the codes. */
  verifyServiceSid: string;
  /** Where Twilio's hosts are reached instead (a local stand-in); Twilio itself when unset. */
  apiUrl?: string;
  timeoutMs: number;
}

/** What a failed call tells the logs: Twilio's error code and status, never its message (it may quote the number). */
export type TwilioFailureLog = (failure: { operation: string; status?: number; code?: number }) => void;

/** Twilio's own HTTP client, sending to `baseUrl` instead of Twilio's hosts (its documented way to change requests). */
class BaseUrlRequestClient extends twilio.RequestClient {
  constructor(
    private readonly baseUrl: string,
    timeoutMs: number,
  ) {
    super({ timeout: timeoutMs });
  }

  override request<TData>(opts: RequestClient.RequestOptions<TData>) {
    const target = new URL(opts.uri);
    return super.request<TData>({ ...opts, uri: `${this.baseUrl}${target.pathname}${target.search}` });
  }
}

// Twilio error codes (twilio.com/docs/api/errors): numbers Verify will not send to, and its throttles.
const REFUSED_NUMBER_CODES = new Set([21211, 21408, 21612, 21614, 60200, 60205, 60410]);
const THROTTLE_CODES = new Set([20429, 60202, 60203]);
const THROTTLED = 'Too many codes for this number: try again later';
const UNAVAILABLE = 'The SMS provider is unavailable: try again later';

/**
 * Phone codes over Twilio Verify (SMS or WhatsApp) and line types over Twilio
 * Lookup v2, with the `twilio` library.
 */
export class TwilioPhones implements CodeSender, LineTypeLookup {
  private readonly client: twilio.Twilio;

  constructor(
    private readonly settings: TwilioSettings,
    private readonly logFailure: TwilioFailureLog = () => undefined,
  ) {
    this.client = twilio(settings.accountSid, settings.authToken, {
      // Never the library's debug logging: it prints request URLs, which hold the number.
      logLevel: 'info',
      ...(settings.apiUrl
        ? { httpClient: new BaseUrlRequestClient(settings.apiUrl.replace(/\/$/, ''), settings.timeoutMs) }
        : { timeout: settings.timeoutMs }),
    });
  }

  private verify() {
    return this.client.verify.v2.services(this.settings.verifyServiceSid);
  }

  async send(phone: string, channel: CodeChannel): Promise<{ status: string }> {
    try {
      const verification = await this.verify().verifications.create({ to: phone, channel });
      return { status: verification.status };
    } catch (error) {
      throw this.refusal('send', error);
    }
  }

  async check(phone: string, code: string): Promise<boolean> {
    try {
      const check = await this.verify().verificationChecks.create({ to: phone, code });
      return check.status === 'approved';
    } catch (error) {
      // No pending verification for the number (none sent, expired, or already used): a wrong code.
      if (error instanceof twilio.RestException && error.status === 404) return false;
      throw this.refusal('check', error);
    }
  }

  async lookUp(phone: string): Promise<{ valid: boolean; lineType?: string | null; countryCode?: string | null }> {
    try {
      const found = await this.client.lookups.v2.phoneNumbers(phone).fetch({ fields: 'line_type_intelligence' });
      return { valid: found.valid, lineType: found.lineTypeIntelligence?.type ?? null, countryCode: found.countryCode ?? null };
    } catch (error) {
      throw this.refusal('lookup', error);
    }
  }

  private refusal(operation: string, error: unknown): Error {
    if (error instanceof twilio.RestException) {
      this.logFailure({ operation, status: error.status, code: error.code });
      if (error.code !== undefined && REFUSED_NUMBER_CODES.has(error.code)) return badRequest(PHONE_INVALID, ERROR_CODES.userPhoneInvalid);
      if (error.status === 429 || (error.code !== undefined && THROTTLE_CODES.has(error.code))) return tooManyRequests(THROTTLED, 600);
    } else {
      this.logFailure({ operation });
    }
    return unavailable(UNAVAILABLE);
  }
}
