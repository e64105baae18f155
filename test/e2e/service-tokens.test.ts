import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PlaylistServiceClient, SongToAdd } from '@spinroom/contracts/playlist/v1/playlist_service';
import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { createGrpcClient, ServiceTokenSource } from '@spinroom/platform';
import { freshEmail, TEST_SERVICE_SECRET, usePlatform } from '../support/platform.js';

const song = (n: number) => ({
  musicProvider: 'spotify',
  songId: `svc-${n}-${Math.random().toString(36).slice(2, 8)}`,
  trackName: `Queued ${n}`,
  artistName: `Artist ${Math.random().toString(36).slice(2, 8)}`,
  duration: 200 + n,
});

describe("service tokens: one service calling another on no user's request", () => {
  const { call, platform } = usePlatform();

  it('issues a short-lived `service` token for the shared secret only', async () => {
    const users = createGrpcClient(UserServiceClient, platform().grpc.user);
    try {
      await expect(users.issueServiceToken({ serviceName: 'room', clientSecret: 'wrong-secret' })).rejects.toMatchObject({ status: 401 });
      await expect(users.issueServiceToken({ serviceName: 'Not A Name', clientSecret: TEST_SERVICE_SECRET })).rejects.toMatchObject({
        status: 400,
      });
      const grant = await users.issueServiceToken({ serviceName: 'room', clientSecret: TEST_SERVICE_SECRET });
      expect(grant.expiresInSeconds).toBe(900);
      const claims = JSON.parse(Buffer.from(grant.accessToken.split('.')[1]!, 'base64url').toString());
      expect(claims).toMatchObject({ sub: 'service:room', role: 'service' });
      expect(claims.exp - claims.iat).toBe(900);
    } finally {
      users.close();
    }
  });

  it("lets a service read a DJ's queue, requeue the played song and snag a starred one, once per play, and refuses users", async () => {
    const dj = (await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } }))
      .body;
    const added = await call('POST', '/api/playlist-service/crate/special/queue/songs', {
      token: dj.accessToken,
      body: { songs: [song(1), song(2), song(3)], append: true },
    });
    expect(added.status).toBe(201);

    const users = createGrpcClient(UserServiceClient, platform().grpc.user);
    const playlists = createGrpcClient(PlaylistServiceClient, platform().grpc.playlist);
    const source = new ServiceTokenSource(() => users.issueServiceToken({ serviceName: 'room', clientSecret: TEST_SERVICE_SECRET }));
    try {
      const token = await source.token();
      expect(await source.token()).toBe(token); // cached until near expiry
      const queue = await playlists.getDjQueue({ userUuid: dj.userUuid, limit: 2 }, { token });
      expect(queue.songs.map((s) => s.song?.trackName)).toEqual(['Queued 1', 'Queued 2']);

      const first = { userUuid: dj.userUuid, crateSongUuid: queue.songs[0]!.crateSongUuid, playId: randomUUID() };
      const after = await playlists.requeuePlayedSong(first, { token });
      expect(after.songs.map((s) => s.song?.trackName)).toEqual(['Queued 2', 'Queued 3', 'Queued 1']);
      expect(after.songs.map((s) => s.position)).toEqual([0, 1, 2]);
      const second = { userUuid: dj.userUuid, crateSongUuid: queue.songs[1]!.crateSongUuid, playId: randomUUID() };
      expect((await playlists.requeuePlayedSong(second, { token })).songs.map((s) => s.song?.trackName)).toEqual([
        'Queued 3',
        'Queued 1',
        'Queued 2',
      ]);
      // The first play's requeue again (the room service replaying it after a crash): once per play, nothing moves.
      const replayed = await playlists.requeuePlayedSong(first, { token });
      expect(replayed.songs.map((s) => s.song?.trackName)).toEqual(['Queued 3', 'Queued 1', 'Queued 2']);
      // A song the DJ removed meanwhile leaves the queue as it is.
      const again = await playlists.requeuePlayedSong(
        { userUuid: dj.userUuid, crateSongUuid: '00000000-0000-4000-8000-000000000000', playId: '' },
        { token },
      );
      expect(again.songs).toHaveLength(3);
      await expect(playlists.requeuePlayedSong({ ...first, playId: 'not-a-uuid' }, { token })).rejects.toMatchObject({ status: 400 });

      // A star's snag into the voter's likes crate, once per play and voter however often it is sent.
      const snag = {
        userUuid: dj.userUuid,
        playId: randomUUID(),
        song: SongToAdd.fromPartial({
          musicProvider: 'spotify',
          providerSongId: `snag-${randomUUID()}`,
          trackName: 'Starred',
          artistName: 'Artist',
          duration: 180,
        }),
      };
      expect(await playlists.snagSong(snag, { token })).toEqual({ added: true });
      expect(await playlists.snagSong(snag, { token })).toEqual({ added: false });
      const likes = await call('GET', '/api/playlist-service/crate/special/likes/songs', { token: dj.accessToken });
      expect(likes.body.songs.map((s: { trackName: string }) => s.trackName)).toEqual(['Starred']);
      await expect(playlists.snagSong(snag, { token: dj.accessToken })).rejects.toMatchObject({ status: 403 });

      await expect(playlists.getDjQueue({ userUuid: dj.userUuid, limit: 2 }, { token: dj.accessToken })).rejects.toMatchObject({
        status: 403,
      });
      await expect(playlists.getDjQueue({ userUuid: 'not-a-uuid', limit: 2 }, { token })).rejects.toMatchObject({ status: 400 });
    } finally {
      users.close();
      playlists.close();
    }
  });
});
