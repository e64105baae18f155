import type { MikroORM } from '@mikro-orm/postgresql';
import { Limit, type Logger, type OutboxEntry, type createRedis } from '@spinroom/platform';
import { TwilioPhones } from '../adapters/mobile-twilio.js';
import { PgMobileStore } from '../db/mobile-store.js';
import type { Accounts } from '../domain/accounts.js';
import { PHONE_CODE_FAILURES_PER_NUMBER, PHONE_CODES_PER_NUMBER, PhoneCodes } from '../domain/mobile/codes.js';
import { Identities } from '../domain/mobile/identities.js';
import { MobileAuth } from '../domain/mobile/mobile-auth.js';
import { PHONE_VALIDATIONS_PER_CALLER, PhoneValidator } from '../domain/mobile/validation.js';
import type { User } from '../domain/user.js';
import type { UserServiceConfig } from '../config.js';

/** The phone area's objects, from the service's config and kit. */
export function buildMobile(
  config: UserServiceConfig,
  deps: {
    orm: MikroORM;
    redis: ReturnType<typeof createRedis>;
    logger: Logger;
    accounts: Pick<Accounts, 'profile' | 'grant'>;
    announceSignUp: (user: User) => OutboxEntry;
    onEventsCommitted: () => void;
  },
) {
  const { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_VERIFY_SERVICE_SID: verifyServiceSid } = config;
  const logger = deps.logger.child({ component: 'mobile' });
  const twilio =
    accountSid && authToken && verifyServiceSid
      ? new TwilioPhones(
          { accountSid, authToken, verifyServiceSid, apiUrl: config.TWILIO_API_URL, timeoutMs: config.TWILIO_TIMEOUT_MS },
          (failure) => logger.warn(failure, 'Twilio call failed'),
        )
      : undefined;
  if (!twilio) logger.info('phone codes are off: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_VERIFY_SERVICE_SID are not all set');
  const store = new PgMobileStore(deps.orm, deps.announceSignUp, deps.onEventsCommitted);
  const validator = new PhoneValidator(
    store,
    twilio,
    new Limit(deps.redis, PHONE_VALIDATIONS_PER_CALLER, config.LIMIT_PHONE_VALIDATIONS_PER_CALLER),
  );
  const sends = new Limit(deps.redis, PHONE_CODES_PER_NUMBER, config.LIMIT_PHONE_CODES_PER_NUMBER);
  const failures = new Limit(deps.redis, PHONE_CODE_FAILURES_PER_NUMBER, config.LIMIT_PHONE_CODE_FAILURES_PER_NUMBER);
  const codes = new PhoneCodes(validator, twilio, sends, failures);
  const grantAccess = async (userUuid: string) => deps.accounts.grant(await deps.accounts.profile(userUuid));
  return {
    validator,
    codes,
    mobileAuth: new MobileAuth(codes, store, grantAccess),
    identities: new Identities(codes, store),
  };
}

export type Mobile = ReturnType<typeof buildMobile>;
