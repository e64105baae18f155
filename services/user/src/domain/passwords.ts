import { hash, verify } from '@node-rs/argon2';
import { availableParallelism } from 'node:os';
import { ERROR_CODES, badRequest, unavailable } from '@spinroom/platform';
import { COMMON_PASSWORDS } from './common-passwords.js';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const PASSWORD_TOO_COMMON = 'This password is too common, please choose another one';

/** The password rules; throws the 400 a person sees. */
export function checkPasswordPolicy(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw badRequest(`Password must be between ${PASSWORD_MIN_LENGTH} and ${PASSWORD_MAX_LENGTH} characters`);
  }
  if (COMMON_PASSWORDS.has(password.toLowerCase())) {
    throw badRequest(PASSWORD_TOO_COMMON, ERROR_CODES.userPasswordTooCommon);
  }
}

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane (argon2id is the library's default algorithm). */
const ARGON2_OPTIONS = { memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes and verifies passwords with argon2id, at most `concurrency` at a time
 * (one per core by default), so a login burst queues here instead of taking
 * every thread and starving the rest of the process. Past `maxQueue` waiting
 * callers, it answers 503 at once rather than queueing without bound.
 */
export class PasswordHasher {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  // A real hash to verify against when the email is unknown, so both paths take the same time.
  private decoy: Promise<string> | undefined;

  constructor(
    private readonly concurrency = Math.max(1, availableParallelism()),
    private readonly maxQueue = 256,
  ) {}

  hash(password: string): Promise<string> {
    return this.limited(() => hash(password, ARGON2_OPTIONS));
  }

  verify(passwordHash: string, password: string): Promise<boolean> {
    return this.limited(() => verify(passwordHash, password).catch(() => false));
  }

  /** Spends the time of one verification, for an unknown account. */
  async verifyDecoy(password: string): Promise<false> {
    this.decoy ??= this.hash('decoy password for unknown accounts');
    await this.verify(await this.decoy, password);
    return false;
  }

  private async limited<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.concurrency) {
      this.active += 1;
    } else {
      if (this.waiting.length >= this.maxQueue) throw unavailable('Too many sign-in attempts right now, please try again');
      await new Promise<void>((resolve) => this.waiting.push(resolve)); // the slot is handed over, not re-counted
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
