import { SpecialCrate, type PlaylistServiceClient } from '@spinroom/contracts/playlist/v1/playlist_service';
import { crateSongToJson } from '@spinroom/contracts/songs';
import type { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { profileToJson } from '@spinroom/contracts/users';
import type { Caller, PromiseClient, ServiceTokenSource } from '@spinroom/platform';
import type { Profiles, Queues } from './live-rooms.js';

/** DJs' queues in the playlist service: read and requeued as the room service itself (a `service` token). */
export function playlistQueues(playlists: PromiseClient<PlaylistServiceClient>, serviceToken: ServiceTokenSource): Queues {
  return {
    async head(djUuid, limit) {
      const { songs } = await playlists.getDjQueue({ userUuid: djUuid, limit }, { token: await serviceToken.token(), deadlineMs: 3_000 });
      return songs.filter((entry) => entry.song).map(crateSongToJson);
    },
    async requeue(djUuid, crateSongUuid) {
      await playlists.requeuePlayedSong({ userUuid: djUuid, crateSongUuid }, { token: await serviceToken.token(), deadlineMs: 3_000 });
    },
    async snag(song) {
      // As the voter (their token is the current caller's): into their likes crate.
      const catalogued = (song as { songId?: string }).songId;
      const [provider, providerSongId] = Object.entries(song.musicProviders)[0] ?? ['', ''];
      await playlists.addCrateSongs({
        crate: { special: SpecialCrate.SPECIAL_CRATE_LIKES, crateUuid: '', crateShortId: '' },
        append: true,
        songs: [
          {
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
        ],
      });
    },
  };
}

/** Profiles from the user service, read with the joining user's own token. Guests appear as ghosts. */
export function userProfiles(users: PromiseClient<UserServiceClient>): Profiles {
  return {
    async of(caller: Caller) {
      const { profile } = await users.getOwnProfile({}, { token: caller.token, deadlineMs: 3_000 });
      if (!profile) return { uuid: caller.userUuid, nickname: 'ghost', avatarId: 'ghost', color: '#FFFFFF' };
      if (caller.kind === 'guest')
        return { uuid: profile.uuid, nickname: profile.nickname, avatarId: profile.avatarId, color: profile.color };
      return profileToJson(profile); // as other users see it (OtherUserProfileResDto), the REST mapping
    },
  };
}
