import { PinnedMessage } from '@spinroom/contracts/room/v1/room_service';
import { DjType, MusicProvider, RoomUserRole } from '@spinroom/contracts/room/v1/room_vocabulary';
import { pinnedMessageFromJson, pinnedMessageToJson, type PinnedMessageJson } from '@spinroom/contracts/rooms';
import {
  DJ_TYPES,
  djTypes,
  MUSIC_PROVIDERS,
  musicProviders,
  ONE_TIME_ANIMATIONS,
  ROOM_DESIGNS,
  ROOM_MUSIC_PROVIDERS,
  ROOM_REFUSALS,
  ROOM_ROLES,
  ROOM_TYPES,
  roomUserRoles,
  USER_ROLES,
} from '@spinroom/contracts/vocabulary';
import { describe, expect, it } from 'vitest';

// The proto enums list the spec's words once; the wire keeps the original's spellings.
describe('the spec vocabularies from room_vocabulary.proto', () => {
  it("spells each value as the original does, in the enum's order", () => {
    expect(DJ_TYPES).toEqual(['EVERYONE', 'INVITE_ONLY', 'PRO_PLAN_OWNER', 'VERIFIED_ONLY']);
    expect(ROOM_TYPES).toEqual(['PUBLIC', 'PRIVATE']);
    expect(ROOM_DESIGNS).toEqual([
      'BARN',
      'BARN_UA',
      'CHAT_ONLY',
      'CLUB',
      'CLUB_UA',
      'FERRY_BUILDING',
      'FESTIVAL',
      'STADIUM',
      'THEATER',
      'TOMORROWLAND',
      'UNDERGROUND',
      'YACHT',
    ]);
    expect(MUSIC_PROVIDERS).toEqual([
      'apple',
      'audius',
      'napster',
      'soundCloudPublic',
      'spotify',
      'uploadService',
      'youtube',
      'pandora',
      'deezer',
      'tidal',
      'amazonMusic',
      'yandex',
      'spinrilla',
      'sevenDigital',
    ]);
    for (const provider of ROOM_MUSIC_PROVIDERS) expect(MUSIC_PROVIDERS).toContain(provider);
  });

  it('spells the room roles, refusals and animations in camelCase', () => {
    expect(ROOM_ROLES).toEqual(['owner', 'coOwner', 'moderator', 'dj', 'banned', 'kicked', 'chatDisabled', 'djDisabled']);
    expect(ROOM_REFUSALS).toEqual(['banned', 'kicked', 'passwordRequired', 'private']);
    expect(ONE_TIME_ANIMATIONS).toEqual(['jump', 'emoji']);
    expect(USER_ROLES).toEqual([
      'globalModerator',
      'admin',
      'moderator',
      'staff',
      'promoter',
      'user',
      'superUser',
      'bot',
      'guest',
      'service',
    ]);
  });

  it('maps each enum value to its word and back, and nothing else', () => {
    expect(djTypes.nameOf(DjType.DJ_TYPE_INVITE_ONLY)).toBe('INVITE_ONLY');
    expect(djTypes.valueOf('VERIFIED_ONLY')).toBe(DjType.DJ_TYPE_VERIFIED_ONLY);
    expect(musicProviders.valueOf('soundCloudPublic')).toBe(MusicProvider.MUSIC_PROVIDER_SOUND_CLOUD_PUBLIC);
    expect(roomUserRoles.nameOf(RoomUserRole.ROOM_USER_ROLE_CO_OWNER)).toBe('coOwner');
    for (const name of ROOM_ROLES) expect(roomUserRoles.nameOf(roomUserRoles.valueOf(name))).toBe(name);
    expect(djTypes.nameOf(DjType.DJ_TYPE_UNSPECIFIED)).toBeUndefined();
    expect(djTypes.nameOf(99 as DjType)).toBeUndefined();
    expect(djTypes.parse('DJ_TYPE_EVERYONE')).toBeUndefined();
    expect(roomUserRoles.parse('owner')).toBe(RoomUserRole.ROOM_USER_ROLE_OWNER);
  });
});

describe('pinned messages as typed messages', () => {
  const pinned: PinnedMessageJson = {
    message: {
      message: 'welcome!',
      userName: 'DJ Ana',
      color: '#FF00AA',
      date: '2026-11-23T10:00:00.000Z',
      reactions: { '🔥': [{ userUuid: 'u1' }] },
      pinnedByUUID: '0b9d4c1e-0000-4000-8000-000000000001',
    },
  };

  it('travel through the wire and come back as the client sent them', () => {
    const wire = PinnedMessage.decode(PinnedMessage.encode(pinnedMessageFromJson(pinned)).finish());
    expect(wire.message?.pinnedByUuid).toBe(pinned.message.pinnedByUUID);
    expect(pinnedMessageToJson(wire)).toEqual(pinned);
  });

  it('keep a date given in epoch milliseconds as a number', () => {
    const millis = { message: { message: 'hi', date: 1_795_000_000_000 } };
    expect(pinnedMessageToJson(PinnedMessage.decode(PinnedMessage.encode(pinnedMessageFromJson(millis)).finish()))).toEqual(millis);
  });
});
