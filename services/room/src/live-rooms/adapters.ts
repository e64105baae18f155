import type { PlaylistServiceClient } from '@spinroom/contracts/playlist/v1/playlist_service';
import { crateSongToJson } from '@spinroom/contracts/songs';
import type { UserProfile, UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { profileToJson, type UserProfileJson } from '@spinroom/contracts/users';
import type { Caller, PromiseClient, Redis, ServiceTokenSource } from '@spinroom/platform';
import type { Profiles, Queues } from './live-rooms.js';

/** DJs' queues and voters' likes in the playlist service, as the room service itself (a `service` token). */
export function playlistQueues(playlists: PromiseClient<PlaylistServiceClient>, serviceToken: ServiceTokenSource): Queues {
  return {
    async head(djUuid, limit) {
      const { songs } = await playlists.getDjQueue({ userUuid: djUuid, limit }, { token: await serviceToken.token(), deadlineMs: 3_000 });
      return songs.filter((entry) => entry.song).map(crateSongToJson);
    },
    async requeue(djUuid, crateSongUuid, playId) {
      await playlists.requeuePlayedSong(
        { userUuid: djUuid, crateSongUuid, playId },
        { token: await serviceToken.token(), deadlineMs: 3_000 },
      );
    },
    async snag(userUuid, playId, song) {
      // Into the voter's likes crate, once per play (the room's effects may run again after a crash).
      const catalogued = (song as { songId?: string }).songId;
      const [provider, providerSongId] = Object.entries(song.musicProviders)[0] ?? ['', ''];
      await playlists.snagSong(
        {
          userUuid,
          playId,
          song: {
            songId: catalogued ?? '',
            catalogueId: 0,
            musicProvider: catalogued ? '' : provider,
            providerSongId: catalogued ? '' : providerSongId,
            artistName: song.artistName,
            trackName: song.trackName,
            duration: song.duration,
            isrc: song.isrc ?? '',
            genre: song.genre ?? '',
            playbackToken: song.playbackToken ?? '',
            explicit: false,
            thumbnails: song.thumbnails,
          },
        },
        { token: await serviceToken.token(), deadlineMs: 3_000 },
      );
    },
  };
}

/** How long a profile stays cached unread by a change (s): a day; its changes replace it meanwhile. */
const PROFILE_TTL_SECONDS = 86_400;
const profileKey = (userUuid: string) => `room:profile:${userUuid}`;

/**
 * Profiles as other users see them (`OtherUserProfileResDto`, the REST
 * mapping), from Redis (`room:profile:<uuid>`), stored as the user service
 * announces them (`updated`: an account's profile as created, `user.signed-up`
 * or a guest's `user.profile-updated`, then each change). Only a profile not
 * cached (a day unread by a change, or an event not consumed yet) is fetched
 * from the user service, with the joining user's own token, and stored unless
 * an event stored a newer one meanwhile. Guests appear as ghosts.
 */
export class CachedProfiles implements Profiles {
  constructor(
    private readonly redis: Redis,
    private readonly users: PromiseClient<UserServiceClient>,
  ) {}

  async of(caller: Caller): Promise<Record<string, unknown>> {
    const cached = await this.redis.get(profileKey(caller.userUuid));
    let profile = cached ? (JSON.parse(cached) as UserProfileJson) : null;
    if (!profile) {
      const fetched = (await this.users.getOwnProfile({}, { token: caller.token, deadlineMs: 3_000 })).profile;
      profile = fetched ? profileToJson(fetched) : null;
      if (profile) await this.redis.set(profileKey(caller.userUuid), JSON.stringify(profile), 'EX', PROFILE_TTL_SECONDS, 'NX');
    }
    if (!profile) return { uuid: caller.userUuid, nickname: 'ghost', avatarId: 'ghost', color: '#FFFFFF' };
    if (caller.kind === 'guest')
      return { uuid: profile.uuid, nickname: profile.nickname, avatarId: profile.avatarId, color: profile.color };
    return profile;
  }

  /** An announced profile (an account's creation, a change): it replaces the cached one. */
  async updated(profile: UserProfile): Promise<void> {
    await this.redis.set(profileKey(profile.uuid), JSON.stringify(profileToJson(profile)), 'EX', PROFILE_TTL_SECONDS);
  }
}
