import { forbidden } from './errors.js';
import type { Caller } from './auth.js';
import { runWithContext } from './context.js';

export interface ServiceGrant {
  accessToken: string;
  expiresInSeconds: number;
}

/** Renew this long before expiry, so a call never leaves with a token about to lapse. */
const RENEW_BEFORE_MS = 60_000;

/**
 * This service's own token (role `service`), for calls made on no user's
 * request. Fetched from the user service on first use, shared by concurrent
 * callers, renewed before it expires.
 */
export class ServiceTokenSource {
  private current: { token: string; renewAtMs: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(private readonly fetchGrant: () => Promise<ServiceGrant>) {}

  async token(): Promise<string> {
    if (this.current && this.current.renewAtMs > Date.now()) return this.current.token;
    // Fetched as no one: inside a request, the caller's token would otherwise ride along.
    this.pending ??= runWithContext({ caller: undefined }, () => this.fetchGrant())
      .then((grant) => {
        this.current = { token: grant.accessToken, renewAtMs: Date.now() + grant.expiresInSeconds * 1000 - RENEW_BEFORE_MS };
        return grant.accessToken;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }
}

/** A 403 unless the caller is one of Spinroom's services. */
export function requireService(caller: Caller): void {
  if (caller.role !== 'service') throw forbidden('Only Spinroom services may call this');
}
