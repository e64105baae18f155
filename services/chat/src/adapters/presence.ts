import type { Redis } from '@spinroom/platform';
import type { PresencePort } from '../domain/ports.js';

/** A user counts as online this long after their last chat call (clients poll about once a second). */
export const ONLINE_SECONDS = 30;
/** A user's presence is written again at most this often by one instance. */
const REFRESH_MS = 10_000;
const CACHE_SIZE = 10_000;

const key = (uid: string) => `chat:online:${uid}`;

/**
 * Who is using the chat: a Redis key per user that each chat call renews
 * (expiring ONLINE_SECONDS after the last), written at most every 10 s per
 * user by one instance. A direct message to someone offline is announced
 * on the `notifications` topic.
 */
export class RedisPresence implements PresencePort {
  private readonly written = new Map<string, number>();

  constructor(
    private readonly redis: Redis,
    private readonly onlineSeconds = ONLINE_SECONDS,
  ) {}

  async seen(uid: string): Promise<void> {
    const now = Date.now();
    const last = this.written.get(uid);
    if (last !== undefined && now - last < Math.min(REFRESH_MS, (this.onlineSeconds * 1000) / 3)) return;
    if (this.written.size >= CACHE_SIZE) this.written.clear();
    this.written.set(uid, now);
    await this.redis.set(key(uid), '1', 'EX', this.onlineSeconds);
  }

  async isOnline(uid: string): Promise<boolean> {
    return (await this.redis.exists(key(uid))) === 1;
  }
}
