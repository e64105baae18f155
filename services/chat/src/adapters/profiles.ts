import type { UserProfile } from '@spinroom/contracts/user/v1/user_service';
import type { SenderIdentity } from '../domain/chat-message.js';
import type { ProfilePort } from '../domain/ports.js';

/** How long a profile read from the user service is reused. */
export const PROFILE_CACHE_MS = 5 * 60_000;
const CACHE_SIZE = 10_000;

/**
 * Senders' names, avatars, colours and badges from the user service
 * (BatchGetProfiles with the chat service's own token), kept ~5 minutes.
 */
export class UserServiceProfiles implements ProfilePort {
  private readonly cache = new Map<string, { identity: SenderIdentity | undefined; expiresAtMs: number }>();

  constructor(
    private readonly fetchProfiles: (userUuids: string[]) => Promise<UserProfile[]>,
    private readonly ttlMs = PROFILE_CACHE_MS,
  ) {}

  async identity(userUuid: string): Promise<SenderIdentity | undefined> {
    const known = this.cache.get(userUuid);
    if (known && known.expiresAtMs > Date.now()) return known.identity;
    const [profile] = /^[0-9a-f-]{36}$/i.test(userUuid) ? await this.fetchProfiles([userUuid]) : [];
    const identity = profile
      ? { uid: profile.uuid, name: profile.nickname, avatar: profile.avatarId, color: profile.color, badges: profile.badges }
      : undefined;
    if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(userUuid, { identity, expiresAtMs: Date.now() + (identity ? this.ttlMs : 5_000) });
    return identity;
  }
}
