import { TokenVerifier, type TokenUse } from './auth.js';
import type { Logger } from './logging.js';

/**
 * Keeps a token verifier for the user service's public key: fetched at start,
 * retried until the user service answers, refreshed now and then so a rotated
 * key is picked up. `verifier` is undefined until the first fetch succeeds.
 */
export class PublicKeyCache {
  verifier: TokenVerifier | undefined;
  private timer: NodeJS.Timeout | undefined;
  private firstLoad: Promise<void>;
  private resolveFirstLoad!: () => void;

  constructor(
    private readonly fetchPublicKeyPem: () => Promise<string>,
    private readonly issuer: string,
    private readonly logger: Logger,
    private readonly refreshMs = 5 * 60_000,
    /** The token use the verifier accepts (see TokenVerifier.fromPem); access tokens when unset. */
    private readonly use?: TokenUse,
  ) {
    this.firstLoad = new Promise((resolve) => (this.resolveFirstLoad = resolve));
  }

  start(): void {
    const load = async () => {
      try {
        this.verifier = await TokenVerifier.fromPem(await this.fetchPublicKeyPem(), { issuer: this.issuer, use: this.use });
        this.resolveFirstLoad();
        this.timer = setTimeout(load, this.refreshMs);
      } catch (error) {
        this.logger.warn({ reason: (error as Error).message }, 'user service public key not available yet; retrying');
        this.timer = setTimeout(load, 500);
      }
      this.timer.unref();
    };
    void load();
  }

  /** Resolves once a key is known. */
  ready(): Promise<void> {
    return this.firstLoad;
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
