import { type Caller, forbidden, isAdminRole } from '@spinroom/platform';
import { canonicalPhone, numberingPlanCountry, statusOfLine } from './phones.js';
import type { LineTypeLookup, MobileStore, PhoneValidation } from './ports.js';

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
    private readonly onLookupFailure: (error: unknown) => void = () => undefined,
  ) {}

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
    } catch (error) {
      this.onLookupFailure(error);
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
