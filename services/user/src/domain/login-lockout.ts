import type { Limit, LimitDeclaration } from '@spinroom/platform';
import type { AccessGrant, Accounts } from './accounts.js';

/** Failed logins per account (keyed by the email asked for, known or not, so a 429 tells nothing about who has an account). */
export const LOGIN_FAILURES_PER_ACCOUNT: LimitDeclaration = {
  key: 'user:login-failures',
  message: (until) => `Too many failed logins for this account: it is locked until ${until.toISOString()}`,
};

/**
 * Logins behind the per-account lockout: once an account has had its
 * allowance of failed logins, every login to it is refused with a 429,
 * the right password too, until the lockout ends.
 */
export class LoginLockout {
  constructor(
    private readonly accounts: Pick<Accounts, 'logIn'>,
    private readonly failures: Limit,
  ) {}

  logIn(input: { email: string; password: string }): Promise<AccessGrant> {
    const email = input.email.trim().toLowerCase();
    // A login missing its email or password is a 400 with no account to count against.
    if (!email || !input.password) return this.accounts.logIn(input);
    return this.failures.attempt(email, () => this.accounts.logIn(input));
  }
}
