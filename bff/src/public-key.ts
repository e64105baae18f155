import { TokenVerifier, type Logger } from '@spinroom/platform';
import type { UserClient } from './routes/user/clients.js';

/**
 * Fetches the token-verifying public key from the user service, retrying until
 * it answers, and refreshes it now and then so a rotated key is picked up.
 */
export class PublicKeyCache {
  verifier: TokenVerifier | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly users: UserClient,
    private readonly issuer: string,
    private readonly logger: Logger,
    private readonly refreshMs = 5 * 60_000,
  ) {}

  start(): void {
    const load = async () => {
      try {
        const { publicKeyPem } = await this.users.getPublicKey({}, { deadlineMs: 2_000 });
        this.verifier = await TokenVerifier.fromPem(publicKeyPem, { issuer: this.issuer });
        this.timer = setTimeout(load, this.refreshMs);
      } catch (error) {
        this.logger.warn({ reason: (error as Error).message }, 'user service public key not available yet; retrying');
        this.timer = setTimeout(load, 500);
      }
      this.timer.unref();
    };
    void load();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
