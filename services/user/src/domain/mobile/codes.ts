import { ERROR_CODES, badRequest, type Limit, type LimitDeclaration, unauthorized, unavailable } from '@spinroom/platform';
import { type CodeChannel, PHONE_INVALID, parseChannel, requirePhone } from './phones.js';
import type { CodeSender } from './ports.js';
import type { PhoneValidator } from './validation.js';

/** Codes sent to one number (README, Limits): each costs money and can be abused to flood a number. */
export const PHONE_CODES_PER_NUMBER: LimitDeclaration = {
  key: 'user:phone-codes',
  message: (until) => `Too many codes were sent to this number: try again after ${until.toISOString()}`,
};

/** Wrong codes tried for one number: guessing a 6-digit code takes far more. */
export const PHONE_CODE_FAILURES_PER_NUMBER: LimitDeclaration = {
  key: 'user:phone-code-failures',
  message: (until) => `Too many wrong codes for this number: try again after ${until.toISOString()}`,
};

export const WRONG_CODE = 'The code is incorrect or has expired';
export const CODES_OFF = 'Phone codes are not available: no SMS provider is configured';
export const VALIDATION_UNAVAILABLE = 'The phone number could not be validated now: try again later';

/** Sending a code to a number the validation accepts, and checking it, under both limits. */
export class PhoneCodes {
  constructor(
    private readonly validator: PhoneValidator,
    private readonly sender: CodeSender | undefined,
    readonly sends: Limit,
    readonly failures: Limit,
  ) {}

  async send(phone: string, channel: string): Promise<{ phone: string; channel: CodeChannel; status: string }> {
    const checkedChannel = parseChannel(channel);
    const sender = this.requireSender();
    const validation = await this.validator.validate(phone);
    if (validation.status === 'VALIDATION_ERROR') throw unavailable(VALIDATION_UNAVAILABLE);
    if (validation.status !== 'VALID') throw badRequest(PHONE_INVALID, ERROR_CODES.userPhoneInvalid);
    await this.sends.consume(validation.phone);
    const { status } = await sender.send(validation.phone, checkedChannel);
    return { phone: validation.phone, channel: checkedChannel, status };
  }

  /** The number a right code proves; 401 otherwise (wrong codes count against the number). */
  async check(phone: string, code: string): Promise<string> {
    const canonical = requirePhone(phone);
    const sender = this.requireSender();
    return this.failures.attempt(canonical, async () => {
      // A code is 4 to 10 digits (Verify's range); anything else is wrong without asking.
      if (!/^\d{4,10}$/.test(code) || !(await sender.check(canonical, code)))
        throw unauthorized(WRONG_CODE, ERROR_CODES.userPhoneCodeWrong);
      return canonical;
    });
  }

  private requireSender(): CodeSender {
    if (!this.sender) throw unavailable(CODES_OFF);
    return this.sender;
  }
}
