import { describe, expect, it } from 'vitest';
import { emptyState } from './fixtures';
import { applyStateful, canModerate, chatDisabledUntil, type LiveState } from '../src/rooms/roomState';
import { playPosition, ServerClock } from '../src/rooms/clock';

describe('room state patches', () => {
  const live = (): LiveState => ({ state: emptyState(), version: 7 });

  it('applies the next version and advances', () => {
    const outcome = applyStateful(live(), [{ op: 'replace', path: '/voteCounts/likes', value: 1 }], 8);
    expect(outcome.kind).toBe('applied');
    if (outcome.kind !== 'applied') return;
    expect(outcome.live.version).toBe(8);
    expect(outcome.live.state.voteCounts.likes).toBe(1);
  });

  it('does not change the state it was given', () => {
    const before = live();
    applyStateful(before, [{ op: 'replace', path: '/vibeMeter', value: 1 }], 8);
    expect(before.state.vibeMeter).toBe(0.5);
  });

  it("applies a message to this connection alone at the join's version (updatedUserData) without advancing", () => {
    const outcome = applyStateful(
      live(),
      [{ op: 'replace', path: '/allUserData', value: { u1: { userProfile: { nickname: 'Ana' } } } }],
      7,
    );
    expect(outcome).toMatchObject({
      kind: 'applied',
      live: { version: 7, state: { allUserData: { u1: { userProfile: { nickname: 'Ana' } } } } },
    });
  });

  it('ignores versions already applied', () => {
    expect(applyStateful(live(), [{ op: 'replace', path: '/vibeMeter', value: 1 }], 5)).toEqual({ kind: 'ignored' });
  });

  it('rejoins on a version gap', () => {
    expect(applyStateful(live(), [{ op: 'replace', path: '/vibeMeter', value: 1 }], 9)).toMatchObject({ kind: 'rejoin' });
  });

  it('rejoins when a patch does not apply', () => {
    const outcome = applyStateful(live(), [{ op: 'replace', path: '/djs/3/uuid', value: 'x' }], 8);
    expect(outcome).toMatchObject({ kind: 'rejoin' });
    if (outcome.kind === 'rejoin') expect(outcome.reason).toMatch(/patch failed/);
  });
});

describe('roles read from the live state', () => {
  it('lets owners, co-owners, moderators and global roles moderate', () => {
    const state = emptyState({
      allUsers: [
        { uuid: 'o', highestRole: 'owner' },
        { uuid: 'u', highestRole: 'user' },
      ],
    });
    expect(canModerate(state, 'o')).toBe(true);
    expect(canModerate(state, 'u')).toBe(false);
    expect(canModerate(state, 'u', ['admin'])).toBe(true);
  });

  it('disables chat until an unexpired chat-disabled role ends', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const state = emptyState();
    state.settings.roomRoles = [{ userUuid: 'u', role: 'chatDisabled', expirationTime: '2026-01-01T00:05:00Z' }];
    expect(chatDisabledUntil(state, 'u', now)?.toISOString()).toBe('2026-01-01T00:05:00.000Z');
    expect(chatDisabledUntil(state, 'u', now + 6 * 60_000)).toBeNull();
    expect(chatDisabledUntil(state, 'someone-else', now)).toBeNull();
  });
});

describe('the song clock', () => {
  it('is duration minus the time left on the server clock', () => {
    const clock = new ServerClock();
    clock.observe(10_000, 4_000); // the server is 6 s ahead
    const nowPlaying = { song: { trackName: 't', artistName: 'a', duration: 40 }, startTime: 0, endTime: 30_000 };
    // Local 4 s = server 10 s: 20 s left of 40 s.
    expect(playPosition(nowPlaying, clock.now(4_000))).toBe(20);
    expect(playPosition(nowPlaying, clock.now(100_000))).toBe(40);
  });
});
