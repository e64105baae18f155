import { Limit, type LimitDeclaration, type Redis } from '@spinroom/platform/core';
import type { Request } from 'express';
import type { BffConfig } from '../config.js';

// Limits per client address live here, at the edge: only the BFF sees the
// address (`req.ip`; a loopback proxy's X-Forwarded-For is trusted). Limits
// per account or user live in the service that owns the data.
const DECLARATIONS = {
  loginFailures: {
    key: 'bff:login-failures',
    message: (until) => `Too many failed logins from this address: try again after ${until.toISOString()}`,
  },
  guestTokens: {
    key: 'bff:guest-tokens',
    message: (until) => `Too many guest sessions from this address: try again after ${until.toISOString()}`,
  },
  signUps: {
    key: 'bff:sign-ups',
    message: (until) => `Too many sign-ups from this address: try again after ${until.toISOString()}`,
  },
  phoneCodes: {
    key: 'bff:phone-codes',
    message: (until) => `Too many phone codes from this address: try again after ${until.toISOString()}`,
  },
  mails: {
    key: 'bff:mails',
    message: (until) => `Too many mails asked for from this address: try again after ${until.toISOString()}`,
  },
} satisfies Record<string, LimitDeclaration>;

export type BffLimits = Record<keyof typeof DECLARATIONS, Limit>;

export type BffLimitConfig = Pick<
  BffConfig,
  | 'LIMIT_LOGIN_FAILURES_PER_ADDRESS'
  | 'LIMIT_GUEST_TOKENS_PER_ADDRESS'
  | 'LIMIT_SIGN_UPS_PER_ADDRESS'
  | 'LIMIT_PHONE_CODES_PER_ADDRESS'
  | 'LIMIT_MAILS_PER_ADDRESS'
>;

export function bffLimits(redis: Redis, config: BffLimitConfig): BffLimits {
  return {
    loginFailures: new Limit(redis, DECLARATIONS.loginFailures, config.LIMIT_LOGIN_FAILURES_PER_ADDRESS),
    guestTokens: new Limit(redis, DECLARATIONS.guestTokens, config.LIMIT_GUEST_TOKENS_PER_ADDRESS),
    signUps: new Limit(redis, DECLARATIONS.signUps, config.LIMIT_SIGN_UPS_PER_ADDRESS),
    phoneCodes: new Limit(redis, DECLARATIONS.phoneCodes, config.LIMIT_PHONE_CODES_PER_ADDRESS),
    mails: new Limit(redis, DECLARATIONS.mails, config.LIMIT_MAILS_PER_ADDRESS),
  };
}

/** The client's address, as the limits key it. */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
