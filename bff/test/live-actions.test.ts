import { songToJson } from '@spinroom/contracts/songs';
import { isAppError } from '@spinroom/platform/core';
import { describe, expect, it } from 'vitest';
import { isLiveAction, LIVE_ACTION_NAMES, liveAction } from '../src/feed/live-actions.js';

const song = {
  songShortId: 'K1',
  artistName: 'Kraftwerk',
  trackName: 'Computer Love',
  genre: null,
  duration: 435,
  isrc: null,
  musicProviders: { spotify: '6Wd2' },
  thumbnails: {},
  playbackToken: null,
  links: { spotify: 'https://open.spotify.com/track/6Wd2' },
};

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isAppError(error)) return { status: error.status, code: error.code, messages: error.messages };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe("the feed's live actions as typed messages", () => {
  it('knows the actions by the proto oneof, and no others', () => {
    expect(LIVE_ACTION_NAMES).toEqual([
      'addDj',
      'removeDj',
      'updateNextSong',
      'skipSong',
      'voteOnSong',
      'playOneTimeAnimation',
      'joinWaitlist',
      'leaveWaitlist',
      'moveInWaitlist',
      'leaveAfterSong',
    ]);
    expect(isLiveAction('joinRoom')).toBe(false);
    expect(isLiveAction('toString')).toBe(false);
  });

  it("maps each action's JSON params to its message, dropping what it does not know (userUuid, tokenRole)", () => {
    expect(liveAction('voteOnSong', { songVotes: { like: true }, userUuid: 'someone-else', tokenRole: 'admin' })).toEqual({
      $case: 'voteOnSong',
      value: { songVotes: { like: true } },
    });
    expect(liveAction('leaveAfterSong', {})).toEqual({ $case: 'leaveAfterSong', value: { enabled: true } });
    expect(liveAction('skipSong', { anything: 1 })).toEqual({ $case: 'skipSong', value: {} });
    const added = liveAction('addDj', { song });
    expect(added.$case).toBe('addDj');
    const message = added.$case === 'addDj' ? added.value.song! : undefined;
    expect(message).toMatchObject({
      songShortId: 'K1',
      duration: 435,
      musicProviders: { spotify: '6Wd2' },
      links: { spotify: 'https://open.spotify.com/track/6Wd2' },
      previews: {},
    });
    expect(message).not.toHaveProperty('genre');
    // Back in the feed's JSON shape exactly as sent: nulls where unknown, empty optional maps left out.
    expect(songToJson(message!)).toEqual(song);
  });

  it('refuses params that do not fit with a coded 400 naming each field', () => {
    expect(refusal(() => liveAction('moveInWaitlist', { targetUserUuid: 'nope', position: -1 }))).toEqual({
      status: 400,
      code: 'FEED_INVALID_ACTION',
      messages: [expect.stringMatching(/^targetUserUuid: /), expect.stringMatching(/^position: /)],
    });
    expect(refusal(() => liveAction('updateNextSong', { song: { ...song, duration: 1.5 } }))).toMatchObject({
      status: 400,
      code: 'FEED_INVALID_ACTION',
      messages: [expect.stringMatching(/^song\.duration: /)],
    });
    expect(refusal(() => liveAction('playOneTimeAnimation', { animation: 'moonwalk' }))).toMatchObject({
      status: 400,
      code: 'FEED_INVALID_ACTION',
    });
  });
});
