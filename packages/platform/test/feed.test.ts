import { describe, expect, it } from 'vitest';
import { decodeFeedFrame, encodeFeedFrame, feedChannel, roomMessageJson, type FeedMessage } from '../src/feed.js';

describe('room feed frames', () => {
  it('round-trips frames and keeps the JSON text exactly as published', () => {
    const json = roomMessageJson({
      roomUuid: 'r1',
      sentAt: 5,
      message: { name: 'votedOnSong', statePatch: [{ op: 'replace', path: '/vibeMeter', value: 1 }] },
      version: 7,
    });
    const raw = encodeFeedFrame({ kind: 's', version: 7, userUuid: '', json });
    expect(decodeFeedFrame(raw)).toEqual({ kind: 's', version: 7, userUuid: '', json });
    expect(JSON.parse(json)).toEqual({
      context: 'user',
      room: 'r1',
      from: 'server',
      sentAt: 5,
      messageId: 7,
      version: 7,
      // Inside the message too: the published client emits only the message to its listeners.
      message: { name: 'votedOnSong', statePatch: [{ op: 'replace', path: '/vibeMeter', value: 1 }], version: 7 },
    });
    const toOne = encodeFeedFrame({ kind: 'u', version: 0, userUuid: 'u-1', json: '{"a":"x|y"}' });
    expect(decodeFeedFrame(toOne)).toEqual({ kind: 'u', version: 0, userUuid: 'u-1', json: '{"a":"x|y"}' });
    expect(feedChannel('r1')).toBe('feed:room:r1');
  });

  it("types each message's name and params once: a stateless message by its params, a stateful one by its name", () => {
    const animation: FeedMessage = { name: 'playedOneTimeAnimation', params: { userUuid: 'u1', animation: 'emoji', emoji: '🔥' } };
    expect(JSON.parse(roomMessageJson({ roomUuid: 'r1', sentAt: 5, message: animation }))).toEqual({
      context: 'user',
      room: 'r1',
      from: 'server',
      sentAt: 5,
      messageId: 0,
      message: animation,
    });
    // The checks that matter happen at compile time (npx tsc): each of these is refused.
    // @ts-expect-error not a feed message
    const unknown: FeedMessage = { name: 'votedOnSongs', statePatch: [] };
    // @ts-expect-error a stateless message with the params of another
    const wrongParams: FeedMessage = { name: 'kickedFromRoom', params: { userUuid: 'u1', animation: 'jump' } };
    // @ts-expect-error a stateless message sent as a patch
    const asPatch: FeedMessage = { name: 'roomReset', statePatch: [] };
    expect([unknown, wrongParams, asPatch]).toHaveLength(3);
  });

  it('refuses malformed frames', () => {
    for (const raw of ['', 's', 's|1|', 'x|1||{}', 's|one||{}', 'ss|1||{}']) expect(decodeFeedFrame(raw)).toBeUndefined();
  });
});
