import { DJ_TYPES, MUSIC_PROVIDERS, ROOM_DESIGNS, ROOM_MUSIC_PROVIDERS, ROOM_TYPES } from '@spinroom/contracts/vocabulary';
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
});
