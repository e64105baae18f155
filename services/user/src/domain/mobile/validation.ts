import { type Caller, forbidden, isAdminRole, type Limit, type LimitDeclaration } from '@spinroom/platform';
import { canonicalPhone, numberingPlanCountry, statusOfLine } from './phones.js';
import type { LineTypeLookup, MobileStore, PhoneValidation } from './ports.js';

/** Validations asked by one caller (each costs the provider's lookup). */
export const PHONE_VALIDATIONS_PER_CALLER: LimitDeclaration = {
  key: 'user:phone-validations',
  message: (until) => `Too many phone numbers validated: try again after ${until.toISOString()}`,
};

/** How many validations the recents keep. */
export const RECENT_VALIDATIONS_KEPT = 200;

export function requireAdmin(caller: Pick<Caller, 'role'>): void {
  if (!isAdminRole(caller.role)) throw forbidden();
}

/**
 * Phone validation: a whitelisted number is VALID; otherwise the number must
 * be valid in its numbering plan (libphonenumber-js), then the provider's
 * lookup tells its line type: mobile is VALID, VoIP is VOIP, the rest INVALID.
 * A lookup that fails (or no lookup configured) is VALIDATION_ERROR.
 */
export class PhoneValidator {
  constructor(
    private readonly store: MobileStore,
    private readonly lookup: LineTypeLookup | undefined,
    /** Counts the validations a caller asks for (GET /phone-validation/validate). */
    readonly perCaller: Limit,
  ) {}

  /** A validation a caller asked for, under their allowance. */
  async validateFor(caller: Pick<Caller, 'userUuid'>, phone: string): Promise<PhoneValidation> {
    await this.perCaller.consume(caller.userUuid);
    return this.validate(phone);
  }

  async validate(phone: string): Promise<PhoneValidation> {
    const validation = await this.check(phone);
    await this.store.recordValidation(validation, RECENT_VALIDATIONS_KEPT);
    return validation;
  }

  private async check(phone: string): Promise<PhoneValidation> {
    const validatedAt = new Date();
    const canonical = canonicalPhone(phone);
    if (!canonical) return { phone: phone.slice(0, 64), status: 'INVALID', whitelisted: false, validatedAt };
    if (await this.store.isWhitelisted(canonical)) return { phone: canonical, status: 'VALID', whitelisted: true, validatedAt };
    const plan = numberingPlanCountry(canonical);
    if (!plan) return { phone: canonical, status: 'INVALID', whitelisted: false, validatedAt };
    const countryCode = plan.country;
    if (!this.lookup) return { phone: canonical, status: 'VALIDATION_ERROR', countryCode, whitelisted: false, validatedAt };
    try {
      const line = await this.lookup.lookUp(canonical);
      return {
        phone: canonical,
        status: statusOfLine(line),
        lineType: line.lineType ?? undefined,
        countryCode: line.countryCode ?? countryCode,
        whitelisted: false,
        validatedAt,
      };
    } catch {
      // The adapter has logged Twilio's code and status (never the number).
      return { phone: canonical, status: 'VALIDATION_ERROR', countryCode, whitelisted: false, validatedAt };
    }
  }

  async recents(caller: Caller, limit = 50): Promise<PhoneValidation[]> {
    requireAdmin(caller);
    return this.store.recentValidations(Math.min(Math.max(limit, 1), RECENT_VALIDATIONS_KEPT));
  }

  async clearRecents(caller: Caller): Promise<number> {
    requireAdmin(caller);
    return this.store.clearValidations();
  }
}
