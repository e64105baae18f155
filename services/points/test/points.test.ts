import { randomUUID } from 'node:crypto';
import { PlayEventKind, PlayTracked } from '@spinroom/contracts/events/v1/analytics';
import { SongPlayed } from '@spinroom/contracts/events/v1/room_events';
import { dropDatabase, newEventMetadata, openServiceDatabase, type MikroORM, type ReceivedEvent } from '@spinroom/platform';
import { uniqueDatabaseUrl } from '@spinroom/platform/testing';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointsDatabase } from '../src/db/database.js';
import { addPoints, isCheckViolation, recordSignUp } from '../src/db/point-store.js';
import { PgSeasonStore } from '../src/db/season-store.js';
import { countedListeners, pointsForPlay, reportEarns, type Listener, type PlayFacts, type SignUp } from '../src/domain/points.js';
import { playTrackingHandler } from '../src/events/play-tracking.js';
import { Seasons } from '../src/domain/seasons.js';
import { roomEventsHandler } from '../src/events/room-events.js';

const RULES = { minListenMs: 30_000, minAccountAgeMs: 86_400_000 };
const START = new Date('2026-06-01T12:00:00Z');
const at = (seconds: number) => new Date(START.getTime() + seconds * 1000);
const OLD: SignUp = { kind: 'user', signedUpAt: new Date('2026-01-01T00:00:00Z') };

function play(audience: Listener[], djUuid = 'dj'): PlayFacts {
  return { playId: 'p', roomSlug: 'r', djUuid, startedAt: START, endedAt: at(180), audience };
}
const listener = (userUuid: string, extra: Partial<Listener> = {}): Listener => ({
  userUuid,
  tokenRole: 'user',
  listeningSince: START,
  ...extra,
});

describe('the points rule', () => {
  const signUps = new Map<string, SignUp>([
    ['fan', OLD],
    ['fan2', OLD],
    ['dj', OLD],
    ['bot', { kind: 'bot', signedUpAt: OLD.signedUpAt }],
    // Signed up 23 hours before the song started: a day old only after it.
    ['young', { kind: 'user', signedUpAt: new Date(START.getTime() - 23 * 3_600_000) }],
  ]);

  it('gives a point per counted up-vote and one for a play heard by someone else', () => {
    const earned = pointsForPlay(play([listener('fan', { likedAt: at(31) }), listener('fan2', { likedAt: at(170) })]), signUps, RULES);
    expect(earned).toEqual({ upVotes: 2, heard: true, voters: ['fan', 'fan2'] });
  });

  it("earns nothing from guests, bots, the DJ's own vote, young or unknown accounts, or votes before the minimum listening time", () => {
    const earned = pointsForPlay(
      play([
        listener('dj', { likedAt: at(60) }),
        listener('guest-1', { tokenRole: 'guest', likedAt: at(60) }),
        listener('fan', { tokenRole: 'guest', likedAt: at(60) }), // a known account, here as a guest
        listener('bot', { likedAt: at(60) }),
        listener('young', { likedAt: at(60) }),
        listener('stranger', { likedAt: at(60) }),
        listener('fan2', { likedAt: at(29) }), // too early
      ]),
      signUps,
      RULES,
    );
    expect(earned).toEqual({ upVotes: 0, heard: true, voters: [] }); // fan2 heard it for three minutes
    expect(
      pointsForPlay(
        play([listener('dj'), listener('bot'), listener('young'), listener('guest-1', { tokenRole: 'guest' })]),
        signUps,
        RULES,
      ),
    ).toEqual({ upVotes: 0, heard: false, voters: [] });
  });

  it('counts the listening time from when the voter joined when that was after the start', () => {
    const late = listener('fan', { listeningSince: at(100), likedAt: at(120) });
    expect(pointsForPlay(play([late]), signUps, RULES)).toEqual({ upVotes: 0, heard: true, voters: [] });
    const joinedLate = listener('fan', { listeningSince: at(100), likedAt: at(130) });
    expect(pointsForPlay(play([joinedLate]), signUps, RULES).upVotes).toBe(1);
    // Joined 10 s before the end: not heard long enough.
    expect(pointsForPlay(play([listener('fan', { listeningSince: at(170) })]), signUps, RULES).heard).toBe(false);
  });

  it('counts as listeners those who heard the play long enough and count, once each', () => {
    const audience = [listener('fan'), listener('fan'), listener('fan2', { listeningSince: at(170) }), listener('dj'), listener('bot')];
    expect(countedListeners(play(audience), signUps, RULES)).toEqual(['fan']);
  });

  it("takes a listener's report for a listen only at 30 seconds with the sound on", () => {
    expect(reportEarns({ thirtySeconds: true, volumeStart: 0.5, volumeEnd: 0 })).toBe(true);
    expect(reportEarns({ thirtySeconds: true, volumeStart: 0, volumeEnd: 0 })).toBe(false);
    expect(reportEarns({ thirtySeconds: false, volumeStart: 1, volumeEnd: 1 })).toBe(false);
  });

  it('lets a young account count once it is a day old', () => {
    const young = listener('young', { likedAt: at(3_600 + 60) });
    expect(pointsForPlay({ ...play([young]), endedAt: at(3_600 + 120) }, signUps, RULES)).toEqual({
      upVotes: 1,
      heard: true,
      voters: ['young'],
    });
  });
});

describe('points on PostgreSQL', () => {
  const databaseUrl = uniqueDatabaseUrl('points_points');
  let orm: MikroORM;
  const admin = { userUuid: randomUUID(), role: 'admin' as const, kind: 'user' as const };

  beforeAll(async () => {
    orm = await openServiceDatabase('points', databaseUrl, pointsDatabase);
  });
  afterAll(async () => {
    await orm.close();
    await dropDatabase(databaseUrl);
  });

  const event = (
    facts: { playId: string; djUuid: string; startedAt: Date; audience: Listener[] },
    eventId = randomUUID(),
  ): ReceivedEvent => ({
    topic: 'room-events',
    partition: 0,
    offset: '0',
    key: facts.playId,
    headers: {},
    eventId,
    eventType: 'room.song-played',
    value: Buffer.from(
      SongPlayed.encode({
        metadata: { ...newEventMetadata('room.song-played'), eventId },
        roomUuid: randomUUID(),
        roomSlug: 'r',
        playId: facts.playId,
        djUuid: facts.djUuid,
        startedAt: facts.startedAt,
        endedAt: new Date(facts.startedAt.getTime() + 180_000),
        likes: 0,
        dislikes: 0,
        stars: 0,
        listeners: facts.audience.length + 1,
        audience: facts.audience,
      }).finish(),
    ),
  });

  it('adds a play’s points once to the season holding its start and to the lifetime status', async () => {
    const seasons = new Seasons(new PgSeasonStore(orm));
    const spring = await seasons.create(admin, { name: 'Spring', start: new Date('2026-03-01T00:00:00Z') });
    const summer = await seasons.create(admin, { name: 'Summer', start: new Date('2026-07-01T00:00:00Z') });
    const [dj, fan1, fan2] = [randomUUID(), randomUUID(), randomUUID()];
    await orm.em.fork().transactional(async (em) => {
      for (const user of [dj, fan1, fan2]) await recordSignUp(em, user, OLD);
    });
    const handle = roomEventsHandler(RULES);
    const audience = (startedAt: Date) => [
      { userUuid: fan1, tokenRole: 'user', listeningSince: startedAt, likedAt: new Date(startedAt.getTime() + 40_000) },
      { userUuid: fan2, tokenRole: 'user', listeningSince: startedAt, likedAt: new Date(startedAt.getTime() + 50_000) },
    ];
    const springPlay = { playId: randomUUID(), djUuid: dj, startedAt: new Date('2026-06-30T23:59:00Z'), audience: [] as Listener[] };
    springPlay.audience = audience(springPlay.startedAt);
    const summerPlay = { playId: randomUUID(), djUuid: dj, startedAt: new Date('2026-07-02T10:00:00Z'), audience: [] as Listener[] };
    summerPlay.audience = audience(summerPlay.startedAt);
    // The spring play three times (under new event ids too, in parallel), the summer one once.
    const run = (e: ReceivedEvent) => orm.em.fork().transactional((em) => handle(e, em));
    await Promise.all([run(event(springPlay)), run(event(springPlay)), run(event(springPlay))]);
    await run(event(summerPlay));
    const statuses = await orm.em
      .fork()
      .execute<Array<{ season_id: string; balance: string }>>(
        `select "season_id", "balance" from "ranking_status" where "user_uuid" = ? order by "balance"`,
        [dj],
      );
    expect(statuses.map((s) => [s.season_id, s.balance]).sort()).toEqual(
      [
        [spring.id, '3'],
        [summer.id, '3'],
      ].sort(),
    );
    const [lifetime] = await orm.em
      .fork()
      .execute<Array<{ balance: string }>>(`select "balance" from "ranking_status_lifetime" where "user_uuid" = ?`, [dj]);
    expect(lifetime?.balance).toBe('6');
    // Nothing for the fans, and a season with points cannot be deleted.
    const [fanRows] = await orm.em
      .fork()
      .execute<Array<{ n: number }>>(`select count(*)::int as "n" from "point" where "user_uuid" in (?, ?)`, [fan1, fan2]);
    expect(fanRows?.n).toBe(0);
    await expect(seasons.delete(admin, spring.id)).rejects.toThrow('Points were earned in this season: it cannot be deleted');
  });

  const report = (
    facts: { listener: string; djUuid: string; at: Date; roomSlug?: string; kind?: PlayEventKind; volume?: number },
    eventId = randomUUID(),
  ): ReceivedEvent => ({
    topic: 'play-tracking',
    partition: 0,
    offset: '0',
    key: facts.listener,
    headers: {},
    eventId,
    eventType: 'play.tracked',
    value: Buffer.from(
      PlayTracked.encode({
        metadata: { eventId, eventType: 'play.tracked', occurredAt: facts.at },
        kind: facts.kind ?? PlayEventKind.PLAY_EVENT_KIND_THIRTY_SECONDS,
        playId: randomUUID(), // the client's own
        userUuid: facts.listener,
        roomSlug: facts.roomSlug ?? 'r',
        roomOwnerUuid: randomUUID(),
        djUuid: facts.djUuid,
        songInfo: undefined,
        startedDate: facts.at,
        updatedDate: facts.at,
        volumeStart: facts.volume ?? 0.8,
        volumeEnd: facts.volume ?? 0.8,
        sent15sec: true,
        sent30sec: true,
        userProvider: 'youtube',
        subscriptionLevel: '',
        device: undefined,
      }).finish(),
    ),
  });

  it('adds a listen point per counted listener who reported 30 seconds with the sound on, whichever event comes first, once', async () => {
    const [dj, early, late, silent, outsider, young] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await orm.em.fork().transactional(async (em) => {
      for (const user of [dj, early, late, silent, outsider]) await recordSignUp(em, user, OLD);
      await recordSignUp(em, young, { kind: 'user', signedUpAt: new Date() });
    });
    type Handle = (e: ReceivedEvent, em: EntityManager) => Promise<void>;
    const run = (handle: Handle, e: ReceivedEvent) => orm.em.fork().transactional((em) => handle(e, em));
    const onPlay = roomEventsHandler(RULES);
    const onReport = playTrackingHandler();
    const startedAt = new Date('2026-05-01T10:00:00Z'); // it ends 180 s later
    const during = new Date(startedAt.getTime() + 31_000);
    const playId = randomUUID();
    const audience = [early, late, silent, young].map((userUuid) => ({ userUuid, tokenRole: 'user', listeningSince: startedAt }));
    const listens = async () =>
      (
        await orm.em
          .fork()
          .execute<Array<{ reference: string }>>(`select "reference" from "point" where "user_uuid" = ? and "kind" = 'listen'`, [dj])
      )
        .map((row) => row.reference)
        .sort();

    // Reported while the song played (the usual order), twice, by someone not in the room, without sound, too young, at 15 s.
    await run(onReport, report({ listener: early, djUuid: dj, at: during }));
    await run(onReport, report({ listener: early, djUuid: dj, at: new Date(during.getTime() + 1000) }));
    await run(onReport, report({ listener: outsider, djUuid: dj, at: during }));
    await run(onReport, report({ listener: silent, djUuid: dj, at: during, volume: 0 }));
    await run(onReport, report({ listener: young, djUuid: dj, at: during }));
    await run(onReport, report({ listener: late, djUuid: dj, at: during, kind: PlayEventKind.PLAY_EVENT_KIND_FIFTEEN_SECONDS }));
    // Of another room, and long after this play: they meet no play here.
    await run(onReport, report({ listener: late, djUuid: dj, at: during, roomSlug: 'elsewhere' }));
    await run(onReport, report({ listener: late, djUuid: dj, at: new Date(startedAt.getTime() + 600_000) }));
    expect(await listens()).toEqual([]);
    await Promise.all([
      run(onPlay, event({ playId, djUuid: dj, startedAt, audience })),
      run(onPlay, event({ playId, djUuid: dj, startedAt, audience })),
    ]);
    expect(await listens()).toEqual([`${playId}/${early}`]);
    // Reported a few seconds after the play's end and after its event: counted then, once, even in parallel.
    const justAfter = new Date(startedAt.getTime() + 185_000);
    await Promise.all([
      run(onReport, report({ listener: late, djUuid: dj, at: justAfter })),
      run(onReport, report({ listener: late, djUuid: dj, at: justAfter })),
    ]);
    expect(await listens()).toEqual([`${playId}/${early}`, `${playId}/${late}`].sort());
  });

  it('adds points given under the same reference once, and never below zero', async () => {
    const user = randomUUID();
    const give = (amount: number, reference: string = randomUUID()) =>
      orm.em.fork().transactional((em) =>
        addPoints(
          em,
          {
            userUuid: user,
            kind: 'admin',
            reference,
            amount,
            reason: 'test',
            actor: admin.userUuid,
            earnedAt: new Date(),
            seasonId: null,
          },
          new Date(),
        ),
      );
    const first = await give(5, 'same');
    const again = await give(5, 'same');
    expect([first.added, again.added, again.lifetime.balance, again.point.id]).toEqual([true, false, 5, first.point.id]);
    expect((await give(-5)).lifetime.balance).toBe(0);
    const refused = await give(-1).catch((error: unknown) => error);
    expect(isCheckViolation(refused)).toBe(true);
  });
});
