import type { createRedis } from '@spinroom/platform';
import type { SendInterval } from '../domain/mail/emails.js';

/** The minimum time between two mails of one kind to one address, kept in Redis so every replica sees it. */
export class RedisSendInterval implements SendInterval {
  constructor(
    private readonly redis: ReturnType<typeof createRedis>,
    private readonly seconds: number,
  ) {}

  async pass(key: string): Promise<boolean> {
    return (await this.redis.set(`mail:interval:${key}`, '1', 'EX', this.seconds, 'NX')) === 'OK';
  }
}
