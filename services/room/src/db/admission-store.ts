import type { Redis } from '@spinroom/platform';
import { ADMISSION_TTL_MS, type Admissions } from '../domain/room-access.js';

const key = (roomUuid: string, userUuid: string) => `room:admission:${roomUuid}:${userUuid}`;

/** Admissions in Redis: `room:admission:<room>:<user>` holds the door passed, expiring after ADMISSION_TTL_MS. */
export class RedisAdmissions implements Admissions {
  constructor(private readonly redis: Redis) {}

  async admit(roomUuid: string, userUuid: string, door: string): Promise<void> {
    await this.redis.set(key(roomUuid, userUuid), door, 'PX', ADMISSION_TTL_MS);
  }

  async passed(pairs: ReadonlyArray<{ roomUuid: string; userUuid: string }>): Promise<Array<string | null>> {
    if (pairs.length === 0) return [];
    return this.redis.mget(pairs.map((p) => key(p.roomUuid, p.userUuid)));
  }
}
