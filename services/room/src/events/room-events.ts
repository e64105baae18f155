import { RoomChanged, RoomDeleted, SongPlayed, StageChanged } from '@spinroom/contracts/events/v1/room_events';
import { songFromJson, type MinimalCrateSongJson } from '@spinroom/contracts/songs';
import { djTypes, roomTypes } from '@spinroom/contracts/vocabulary';
import { newEventMetadata, type EventMetadata, type OutboxEntry } from '@spinroom/platform';
import type { Room } from '../domain/room.js';
import { TOPICS } from '@spinroom/contracts/topics';

export const ROOM_EVENTS_TOPIC = TOPICS.roomEvents.name;

/** `room.created` / `room.updated`, keyed by the room's uuid. */
export function roomChanged(
  kind: 'created' | 'updated',
  room: Room,
  change: { ownerUuid: string; actorUuid: string; changedFields?: string[] },
): OutboxEntry {
  const metadata = newEventMetadata(`room.${kind}`);
  const payload = RoomChanged.encode({
    metadata,
    roomUuid: room.uuid,
    slug: room.slug,
    name: room.name,
    ownerUuid: change.ownerUuid,
    type: roomTypes.valueOf(room.type),
    unlisted: room.unlisted,
    djType: djTypes.valueOf(room.djType),
    changedFields: change.changedFields ?? [],
    actorUserUuid: change.actorUuid,
  }).finish();
  return { topic: ROOM_EVENTS_TOPIC, key: room.uuid, metadata, payload };
}

/** `room.deleted`, keyed by the room's uuid. */
export function roomDeleted(room: Room, actorUuid: string): OutboxEntry {
  const metadata = newEventMetadata('room.deleted');
  const payload = RoomDeleted.encode({ metadata, roomUuid: room.uuid, slug: room.slug, actorUserUuid: actorUuid }).finish();
  return { topic: ROOM_EVENTS_TOPIC, key: room.uuid, metadata, payload };
}

/** `room.song-played`, keyed by the room's uuid. */
export function songPlayed(play: {
  roomUuid: string;
  roomSlug: string;
  playId: string;
  djUuid: string;
  song: MinimalCrateSongJson;
  startTime: number;
  endTime: number;
  voteCounts: { likes: number; dislikes: number; stars: number };
  listeners: number;
  audience?: Array<{ userUuid: string; tokenRole: string; listeningSince: number; likedAt?: number }>;
}): OutboxEntry {
  const metadata = newEventMetadata('room.song-played');
  const payload = SongPlayed.encode({
    metadata,
    roomUuid: play.roomUuid,
    roomSlug: play.roomSlug,
    playId: play.playId,
    djUuid: play.djUuid,
    song: songFromJson(play.song),
    startedAt: new Date(play.startTime),
    endedAt: new Date(play.endTime),
    ...play.voteCounts,
    listeners: play.listeners,
    audience: (play.audience ?? []).map((listener) => ({
      userUuid: listener.userUuid,
      tokenRole: listener.tokenRole,
      listeningSince: new Date(listener.listeningSince),
      likedAt: listener.likedAt === undefined ? undefined : new Date(listener.likedAt),
    })),
  }).finish();
  return { topic: ROOM_EVENTS_TOPIC, key: play.roomUuid, metadata, payload };
}

/**
 * `room.stage-changed`, keyed by the room's uuid: who took and who left a seat.
 * Its event id is the change's own (`changeId`) and its time the change's, so
 * the same change announced again is the same event.
 */
export function stageChanged(change: {
  changeId: string;
  at: number;
  roomUuid: string;
  roomSlug: string;
  roomName: string;
  added: string[];
  removed: string[];
  djs: string[];
  numberOfDjs: number;
}): OutboxEntry {
  const metadata: EventMetadata = { eventId: change.changeId, eventType: 'room.stage-changed', occurredAt: new Date(change.at) };
  const payload = StageChanged.encode({
    metadata,
    roomUuid: change.roomUuid,
    roomSlug: change.roomSlug,
    roomName: change.roomName,
    addedDjUuids: change.added,
    removedDjUuids: change.removed,
    djUuids: change.djs,
    numberOfDjs: change.numberOfDjs,
  }).finish();
  return { topic: ROOM_EVENTS_TOPIC, key: change.roomUuid, metadata, payload };
}
