import { RoomChanged, SongPlayed, StageChanged } from '@spinroom/contracts/events/v1/room_events';
import { DjType, RoomType } from '@spinroom/contracts/room/v1/room_vocabulary';
import { songToJson } from '@spinroom/contracts/songs';
import { describe, expect, it } from 'vitest';
import { ROOM_DEFAULTS, type Room } from '../src/domain/room.js';
import { roomChanged, songPlayed, stageChanged } from '../src/events/room-events.js';

describe('room.song-played on Kafka', () => {
  it('carries the song as a typed message that reads back as the feed carried it', () => {
    const song = {
      songShortId: 'K1',
      crateSongUuid: '0f8e4a36-5a43-4b8e-9d68-0d0b8a8f7c21',
      artistName: 'Kraftwerk',
      trackName: 'Computer Love',
      genre: null,
      duration: 435,
      isrc: 'DEA168100010',
      musicProviders: { spotify: '6Wd2' },
      thumbnails: { small: 'https://img.example/k1.jpg' },
      playbackToken: null,
    };
    const entry = songPlayed({
      roomUuid: '5d0c1c52-7b0f-4f4e-8d1c-3c9b8d0e2f11',
      roomSlug: 'the-room',
      playId: 'p1',
      djUuid: '9a3c1e52-7b0f-4f4e-8d1c-3c9b8d0e2f11',
      song,
      startTime: Date.parse('2026-01-01T10:00:00Z'),
      endTime: Date.parse('2026-01-01T10:07:15Z'),
      voteCounts: { likes: 2, dislikes: 0, stars: 1 },
      listeners: 5,
      audience: [
        {
          userUuid: 'u1',
          tokenRole: 'user',
          listeningSince: Date.parse('2026-01-01T10:00:00Z'),
          likedAt: Date.parse('2026-01-01T10:01:00Z'),
        },
        { userUuid: 'g1', tokenRole: 'guest', listeningSince: Date.parse('2026-01-01T10:02:00Z') },
      ],
    });
    const decoded = SongPlayed.decode(entry.payload);
    expect(decoded.song).toMatchObject({
      trackName: 'Computer Love',
      duration: 435,
      isrc: 'DEA168100010',
      musicProviders: { spotify: '6Wd2' },
    });
    expect(decoded.song!.genre).toBeUndefined();
    expect(songToJson(decoded.song!)).toEqual(song);
    expect(decoded).toMatchObject({ playId: 'p1', likes: 2, stars: 1, listeners: 5, endedAt: new Date('2026-01-01T10:07:15Z') });
    expect(decoded.audience).toEqual([
      { userUuid: 'u1', tokenRole: 'user', listeningSince: new Date('2026-01-01T10:00:00Z'), likedAt: new Date('2026-01-01T10:01:00Z') },
      { userUuid: 'g1', tokenRole: 'guest', listeningSince: new Date('2026-01-01T10:02:00Z'), likedAt: undefined },
    ]);
  });
});

describe('room.created and room.updated on Kafka', () => {
  it("carries the room's type and DJ type as the vocabulary's enums", () => {
    const room = {
      ...ROOM_DEFAULTS,
      id: 1,
      uuid: '5d0c1c52-7b0f-4f4e-8d1c-3c9b8d0e2f11',
      slug: 'the-room',
      name: 'The Room',
      type: 'PRIVATE',
      djType: 'INVITE_ONLY',
    } as unknown as Room;
    const entry = roomChanged('created', room, {
      ownerUuid: '9a3c1e52-7b0f-4f4e-8d1c-3c9b8d0e2f11',
      actorUuid: '9a3c1e52-7b0f-4f4e-8d1c-3c9b8d0e2f11',
    });
    expect(RoomChanged.decode(entry.payload)).toMatchObject({
      slug: 'the-room',
      type: RoomType.ROOM_TYPE_PRIVATE,
      djType: DjType.DJ_TYPE_INVITE_ONLY,
    });
  });
});

describe('room.stage-changed on Kafka', () => {
  it('names who took and who left a seat, and the stage after the change, under the change id and time', () => {
    const entry = stageChanged({
      changeId: '0b6f1e9e-3f43-4d39-9a55-0d7c2b1f4a10',
      at: Date.UTC(2026, 10, 26, 12, 0, 0),
      roomUuid: '5d0c1c52-7b0f-4f4e-8d1c-3c9b8d0e2f11',
      roomSlug: 'the-room',
      roomName: 'The Room',
      added: ['b'],
      removed: ['a'],
      djs: ['c', 'b'],
      numberOfDjs: 3,
    });
    expect(entry.key).toBe('5d0c1c52-7b0f-4f4e-8d1c-3c9b8d0e2f11');
    expect(entry.metadata).toEqual({
      eventId: '0b6f1e9e-3f43-4d39-9a55-0d7c2b1f4a10',
      eventType: 'room.stage-changed',
      occurredAt: new Date(Date.UTC(2026, 10, 26, 12, 0, 0)),
    });
    expect(StageChanged.decode(entry.payload)).toMatchObject({
      metadata: { eventId: '0b6f1e9e-3f43-4d39-9a55-0d7c2b1f4a10', occurredAt: new Date(Date.UTC(2026, 10, 26, 12, 0, 0)) },
      roomSlug: 'the-room',
      roomName: 'The Room',
      addedDjUuids: ['b'],
      removedDjUuids: ['a'],
      djUuids: ['c', 'b'],
      numberOfDjs: 3,
    });
  });
});
