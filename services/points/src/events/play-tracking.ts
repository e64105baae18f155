import type { EntityManager } from '@mikro-orm/postgresql';
import { PlayEventKind, PlayTracked } from '@spinroom/contracts/events/v1/analytics';
import type { ReceivedEvent } from '@spinroom/platform';
import { addPoints } from '../db/point-store.js';
import { earnedListens, lockStage, recordReport, type Stage } from '../db/play-listen-store.js';
import { reportEarns } from '../domain/points.js';
import type { OnPointsAdded } from './room-events.js';
import { TOPICS } from '@spinroom/contracts/topics';

export const PLAY_TRACKING_TOPIC = TOPICS.playTracking.name;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Adds the `listen` points earned so far on a stage (a DJ in a room): one row
 * per listener and play (reference `<play id>/<listener>`), so a listen
 * counted again adds nothing. Called under the stage's lock by both
 * consumers, whichever completes a pair.
 */
export async function awardListens(
  em: EntityManager,
  stage: Stage,
  only: { playId: string } | { listenerUuid: string },
  options: { now: () => Date; onAdded?: OnPointsAdded },
): Promise<void> {
  for (const listen of await earnedListens(em, stage, only)) {
    const added = await addPoints(
      em,
      {
        userUuid: listen.djUuid,
        kind: 'listen',
        reference: `${listen.playId}/${listen.listenerUuid}`,
        amount: 1,
        reason: 'A listener played the song for 30 seconds',
        actor: 'play-tracking',
        earnedAt: listen.startedAt,
      },
      options.now(),
    );
    if (added.added) await options.onAdded?.(em, added);
  }
}

/**
 * Listeners' own play reports (topic `play-tracking`, written by the audit
 * service's /kinesis with the caller's uuid and the time it received the
 * record): a 30-second report with the sound on is kept, and earns the DJ a
 * point once the room service has counted that listener in the audience of
 * that DJ's play in that room at that time (the other half, from
 * room-events). The client's play id is its own, so a report meets its play
 * by room, DJ, listener and time. Other reports are not the points' business.
 */
export function playTrackingHandler(options: { now?: () => Date; onAdded?: OnPointsAdded } = {}) {
  const now = options.now ?? (() => new Date());
  return async (event: ReceivedEvent, em: EntityManager): Promise<void> => {
    if (event.eventType !== 'play.tracked') return;
    const report = PlayTracked.decode(event.value);
    const thirtySeconds = report.kind === PlayEventKind.PLAY_EVENT_KIND_THIRTY_SECONDS;
    if (!reportEarns({ thirtySeconds, volumeStart: report.volumeStart, volumeEnd: report.volumeEnd })) return;
    const reportedAt = report.metadata?.occurredAt;
    if (!reportedAt || !UUID.test(report.userUuid) || !UUID.test(report.djUuid) || !report.roomSlug || report.roomSlug.length > 200) return;
    const stage = { roomSlug: report.roomSlug, djUuid: report.djUuid };
    await lockStage(em, stage);
    await recordReport(em, stage, report.userUuid, reportedAt, now());
    await awardListens(em, stage, { listenerUuid: report.userUuid }, { now, onAdded: options.onAdded });
  };
}
