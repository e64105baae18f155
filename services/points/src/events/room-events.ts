import type { EntityManager } from '@mikro-orm/postgresql';
import { SongPlayed } from '@spinroom/contracts/events/v1/room_events';
import type { ReceivedEvent } from '@spinroom/platform';
import { addPoints, signUpsOf, type AddedPoints } from '../db/point-store.js';
import { lockStage, recordListeners } from '../db/play-listen-store.js';
import { countedListeners, pointsForPlay, type EarningRules, type PlayFacts } from '../domain/points.js';
import { awardListens } from './play-tracking.js';
import { TOPICS } from '@spinroom/contracts/topics';

export const ROOM_EVENTS_TOPIC = TOPICS.roomEvents.name;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What happens after points were added, in the same transaction (season awards). */
export type OnPointsAdded = (em: EntityManager, added: AddedPoints) => Promise<void>;

/** A song played in a room (`room.song-played`), as the rule reads it. */
export function playFacts(event: ReceivedEvent): PlayFacts {
  const played = SongPlayed.decode(event.value);
  if (!played.playId || !UUID.test(played.djUuid) || !played.startedAt || !played.endedAt) {
    throw new Error(`room.song-played without a play id, a DJ uuid, a start or an end (play ${JSON.stringify(played.playId)})`);
  }
  return {
    playId: played.playId,
    roomSlug: played.roomSlug,
    djUuid: played.djUuid,
    startedAt: played.startedAt,
    endedAt: played.endedAt,
    audience: played.audience
      .filter((listener) => UUID.test(listener.userUuid) && listener.listeningSince)
      .map((listener) => ({
        userUuid: listener.userUuid,
        tokenRole: listener.tokenRole,
        listeningSince: listener.listeningSince!,
        likedAt: listener.likedAt,
      })),
  };
}

/**
 * Points from the room service's plays (topic `room-events`), in the
 * consumer's transaction: the rule (domain/points.ts) on what the service
 * knows of the listeners' sign-ups, then one point row per kind and play (its
 * id is the row's reference), so a play counted again adds nothing. Points go
 * to the season holding the play's start and to the lifetime status. The
 * listeners it counted are kept for listen points (events/play-tracking.ts).
 * Other room events are not the points' business.
 */
export function roomEventsHandler(rules: EarningRules, options: { now?: () => Date; onAdded?: OnPointsAdded } = {}) {
  const now = options.now ?? (() => new Date());
  return async (event: ReceivedEvent, em: EntityManager): Promise<void> => {
    if (event.eventType !== 'room.song-played') return;
    const play = playFacts(event);
    await lockStage(em, play);
    const signUps = await signUpsOf(em, [...new Set(play.audience.map((listener) => listener.userUuid))]);
    const earned = pointsForPlay(play, signUps, rules);
    const rows = [
      { kind: 'upvotes' as const, amount: earned.upVotes, reason: `Up-votes on a song (${earned.upVotes})` },
      { kind: 'play' as const, amount: earned.heard ? 1 : 0, reason: 'A song heard by others' },
    ];
    for (const row of rows) {
      if (row.amount === 0) continue;
      const added = await addPoints(
        em,
        { userUuid: play.djUuid, reference: play.playId, actor: 'room-events', earnedAt: play.startedAt, ...row },
        now(),
      );
      if (added.added) await options.onAdded?.(em, added);
    }
    await recordListeners(em, play, countedListeners(play, signUps, rules), now());
    await awardListens(em, play, { playId: play.playId }, { now, onAdded: options.onAdded });
  };
}
