// Points earned in a live room, end to end (issue 16): a song played on the
// room feed ends, the room service announces it on room-events with its
// audience and their up-votes, and the points service gives the DJ a point
// for the listener's up-vote and one for the play, none for the DJ's own vote,
// and one for the listener's own report (POST /kinesis, play-tracking) that
// they played it with the sound on.
import { randomUUID } from 'node:crypto';
import { eventually } from '@spinroom/platform/testing';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { FeedListener } from '../support/feed-client.js';
import { freshEmail, signedToken, usePlatform } from '../support/platform.js';

const PLAY_MS = 8000;
const MERCH = '/api/merch-service';

describe('points from a live room', () => {
  // Accounts a test makes are seconds old: the account-age rule is off here (services/points/test covers it).
  const { call, platform } = usePlatform({
    room: { LIVE_MAX_PLAY_MS: PLAY_MS },
    points: { POINTS_MIN_ACCOUNT_AGE_HOURS: 0, POINTS_MIN_LISTEN_SECONDS: 1 },
  });
  const open: FeedListener[] = [];
  afterEach(() => {
    for (const listener of open.splice(0)) listener.close();
  });

  const person = async () => {
    const body = (
      await call('POST', '/api/user-service/users/sign-up', { body: { email: freshEmail(), password: 'correct horse battery' } })
    ).body;
    return { token: body.accessToken as string, uuid: body.userUuid as string };
  };

  it("gives the DJ a point for a listener's up-vote, one for the play and one for the listener's play report, into the current season", async () => {
    const admin = await signedToken('admin');
    const season = (await call('POST', `${MERCH}/points/season`, { token: admin, body: { name: 'Live season', start: '2020-01-01' } }))
      .body;
    const dj = await person();
    const fan = await person();
    // The points service knows the fan once their sign-up is consumed (the token account comes with it).
    await eventually(async () => {
      const account = await call('GET', `${MERCH}/api/v1/token-accounts/self`, { token: fan.token });
      return account.status === 200 ? true : undefined;
    }, 120_000);
    const track = `Points ${randomUUID().slice(0, 8)}`;
    const queued = await call('POST', '/api/playlist-service/crate/special/queue/songs', {
      token: dj.token,
      body: {
        songs: [{ musicProvider: 'spotify', songId: `pts-${randomUUID()}`, trackName: track, artistName: 'Artist', duration: 200 }],
        append: true,
      },
    });
    expect(queued.status).toBe(201);
    const room = (
      await call('POST', '/api/room-service/rooms/infrastructure', {
        token: dj.token,
        body: { name: `Points ${randomUUID().slice(0, 6)}` },
      })
    ).body as { uuid: string; slug: string };
    const d = await FeedListener.join(platform().baseUrl, dj.token, dj.uuid, room.uuid);
    open.push(d);
    const f = await FeedListener.join(platform().baseUrl, fan.token, fan.uuid, room.uuid);
    open.push(f);
    await d.until((s) => s.allUserData[fan.uuid], 'the fan in the room');
    await d.action('addDj');
    const start = (await f.until((s) => s.nowPlaying?.song?.trackName === track, 'the song playing')).nowPlaying.startTime as number;
    // Past the minimum listening time (1 s here), the fan likes it; the DJ likes their own song too.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + 1500 - Date.now())));
    await f.action('voteOnSong', { songVotes: { like: true } });
    await d.action('voteOnSong', { songVotes: { like: true } });
    await f.until((s) => s.voteCounts.likes === 1 && s.nowPlaying?.startTime === start, 'the like counted, in the same play');
    // The fan's player says it played the song with the sound on (30 s here is the test's short song: the rule reads the report's time).
    const played = await call('POST', '/api/audit-service/kinesis', {
      token: fan.token,
      body: {
        topic: 'play-tracking',
        record: {
          event: 'played30Sec',
          playId: randomUUID(),
          userUuid: fan.uuid,
          roomSlug: room.slug,
          djUuid: dj.uuid,
          songInfo: { songId: 'queued', trackName: track },
          startedDate: new Date(start).toISOString(),
          updatedDate: new Date(start + 30_000).toISOString(),
          volumeStart: 80,
          volumeEnd: 80,
          userProvider: 'youtube',
          device: { platform: 'web' },
        },
      },
    });
    expect(played.status).toBeLessThan(300);
    // The song ends (it may play again after: each play heard by the fan earns its point).
    await eventually(async () => {
      const sum = (await call('GET', `${MERCH}/points/ranking-status/sum/${dj.uuid}`)).body;
      return sum.balance >= 3 ? sum : undefined;
    }, 120_000);
    const db = new pg.Client({ connectionString: platform().points.databaseUrl });
    await db.connect();
    try {
      const rows = await db.query(`select "kind", "amount", "season_id" from "point" where "user_uuid" = $1 and "kind" = 'upvotes'`, [
        dj.uuid,
      ]);
      // The fan's like, once (the DJ's own like earns nothing).
      expect(rows.rows).toEqual([{ kind: 'upvotes', amount: '1', season_id: season.id }]);
      // The fan's report of the play: one listen, whatever else it may have played.
      const listens = await db.query(`select "reference" from "point" where "user_uuid" = $1 and "kind" = 'listen'`, [dj.uuid]);
      expect(listens.rows).toHaveLength(1);
      expect(listens.rows[0].reference).toMatch(new RegExp(`/${fan.uuid}$`));
    } finally {
      await db.end();
    }
    const ranking = (await call('GET', `${MERCH}/points/season-ranking`, { token: dj.token })).body;
    expect(ranking.season.id).toBe(season.id);
    // Plays of other tests on this Kafka may earn their DJs points here too: the DJ is ranked, maybe not first.
    expect(ranking.me).toMatchObject({ userUuid: dj.uuid, seasonId: season.id });
    expect(ranking.me.rank).toBeGreaterThanOrEqual(1);
    expect((await call('GET', `${MERCH}/points/ranking-status/sum/${fan.uuid}`)).body.balance).toBe(0);
  }, 300_000);
});
