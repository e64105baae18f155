import { TokenVerifier, type PublishedKey, type TokenUse } from './auth.js';
import type { Logger } from './logging.js';
import type { SessionRevocations } from './sessions.js';

/** What the user service publishes (its GetPublicKey answer): the current key, and every key it trusts by `kid`. */
export interface PublishedKeys {
  publicKeyPem: string;
  keys?: PublishedKey[];
}

export interface PublicKeyCacheOptions {
  fetch: () => Promise<PublishedKeys>;
  issuer: string;
  logger: Logger;
  refreshMs?: number;
  /** The token use the verifier accepts (see TokenVerifier); access tokens when unset. */
  use?: TokenUse;
  /** Refuses tokens of ended sessions. */
  sessions?: SessionRevocations;
}

/** A token naming an unknown `kid` reloads the keys, at most this often. */
const UNKNOWN_KEY_RELOAD_MS = 5_000;

/**
 * Keeps a token verifier for the user service's published keys: fetched at
 * start, retried until the user service answers, refreshed now and then, and
 * at once (rate-limited) when a token names a key not held yet, so a rotated
 * key is picked up. `verifier` is undefined until the first fetch succeeds.
 */
export class PublicKeyCache {
  verifier: TokenVerifier | undefined;
  private timer: NodeJS.Timeout | undefined;
  private firstLoad: Promise<void>;
  private resolveFirstLoad!: () => void;
  private lastUnknownKeyReload = 0;

  constructor(private readonly options: PublicKeyCacheOptions) {
    this.firstLoad = new Promise((resolve) => (this.resolveFirstLoad = resolve));
  }

  start(): void {
    const load = async () => {
      try {
        await this.load();
        this.resolveFirstLoad();
        this.timer = setTimeout(() => void load(), this.options.refreshMs ?? 5 * 60_000);
      } catch (error) {
        this.options.logger.warn({ reason: (error as Error).message }, 'user service public key not available yet; retrying');
        this.timer = setTimeout(() => void load(), 500);
      }
      this.timer.unref();
    };
    void load();
  }

  private async load(): Promise<void> {
    const published = await this.options.fetch();
    const pems = [published.publicKeyPem, ...(published.keys ?? []).map((key) => key.publicKeyPem)];
    if (this.verifier) await this.verifier.useKeys(pems);
    else {
      this.verifier = await TokenVerifier.fromKeys(pems, {
        issuer: this.options.issuer,
        use: this.options.use,
        sessions: this.options.sessions,
        onUnknownKey: () => this.reloadForUnknownKey(),
      });
    }
  }

  private async reloadForUnknownKey(): Promise<void> {
    if (Date.now() - this.lastUnknownKeyReload < UNKNOWN_KEY_RELOAD_MS) return;
    this.lastUnknownKeyReload = Date.now();
    await this.load().catch((error: Error) => this.options.logger.warn({ reason: error.message }, 'reloading the public keys failed'));
  }

  /** Resolves once a key is known. */
  ready(): Promise<void> {
    return this.firstLoad;
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
