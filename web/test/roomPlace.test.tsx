// The room as a place: every design has a look of its own, the booth's
// next-up rule follows the room service's rotation, the stage's people are
// one tab stop walked with the arrow keys, free seats invite, house rules.
import { ROOM_DESIGNS } from '@spinroom/contracts/vocabulary';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RoomState, Song } from '../src/api/types';
import { DEFAULT_PROFILE_COLOR } from '../src/avatars/catalogue';
import { en } from '../src/i18n/en';
import { ServerClock } from '../src/rooms/clock';
import { NowPlaying } from '../src/rooms/NowPlaying';
import { houseRules } from '../src/rooms/RoomInfo';
import { Scene } from '../src/rooms/Scene';
import { mayTakeSeat, nextUp, playingDj, secondsLeft } from '../src/stage/booth';
import { DESIGN_LOOKS, designLook, drawnDesign } from '../src/stage/designs';
import { emptyState } from './fixtures';

afterEach(cleanup);

const HEX = /^#[0-9A-F]{6}$/i;

describe('the design look table', () => {
  it('has a look for each of the twelve designs of spec 001, and no other', () => {
    expect(ROOM_DESIGNS).toHaveLength(12);
    expect(Object.keys(DESIGN_LOOKS).sort()).toEqual([...ROOM_DESIGNS].sort());
  });

  it('gives every design a look of its own, in real colours', () => {
    const looks = Object.values(DESIGN_LOOKS);
    const signatures = new Set(looks.map((l) => JSON.stringify([l.backdrop, l.sky, l.floor, l.accent, l.flag])));
    expect(signatures.size).toBe(12);
    for (const look of looks)
      for (const color of [...look.sky, ...look.floor, look.stageColor, look.accent, look.accent2]) expect(color).toMatch(HEX);
    // Ten drawings: the UA club and barn are the club and the barn with the flag in them.
    expect(new Set(looks.map((l) => l.backdrop)).size).toBe(10);
    expect(DESIGN_LOOKS.CLUB_UA.backdrop).toBe(DESIGN_LOOKS.CLUB.backdrop);
    expect(DESIGN_LOOKS.CLUB_UA.flag && DESIGN_LOOKS.BARN_UA.flag).toBe(true);
    expect(looks.filter((l) => l.flag)).toHaveLength(2);
  });

  it('draws a design it does not know (a newer server) as the club', () => {
    expect(drawnDesign('SPACESHIP')).toBe('CLUB');
    expect(drawnDesign(undefined)).toBe('CLUB');
    expect(designLook('SPACESHIP')).toBe(DESIGN_LOOKS.CLUB);
    expect(drawnDesign('YACHT')).toBe('YACHT');
  });

  it('puts the design on the scene (data-design) with its own drawing', () => {
    for (const design of ['YACHT', 'STADIUM', 'BARN_UA'] as const) {
      const { container, unmount } = render(
        <Scene state={emptyState({ settings: { ...emptyState().settings, design } })} animations={{}} meUuid={null} onPick={() => {}} />,
      );
      const scene = container.querySelector('.scene')!;
      expect(scene.getAttribute('data-design')).toBe(design);
      expect(scene.querySelector('svg.backdrop stop')!.getAttribute('stop-color')).toBe(DESIGN_LOOKS[design].sky[0]);
      unmount();
    }
  });
});

const song = (trackName: string): Song => ({ trackName, artistName: 'Band', duration: 200 });
const dj = (uuid: string, next: string | null = null) => ({ uuid, canDj: true, nextSong: next ? song(next) : null });
const playing = { song: song('Now'), startTime: 0, endTime: 200_000 };

describe('next up', () => {
  it('is the second DJ with their next song while the first plays', () => {
    const state = emptyState({ djs: [dj('ana', 'A2'), dj('bo', 'B1')], nowPlaying: playing, songsRemainingForDj: 0 });
    expect(playingDj(state)).toBe('ana');
    expect(nextUp(state)).toEqual({ djUuid: 'bo', song: song('B1'), fromWaitlist: false });
  });

  it('is the same DJ again when they are alone on the stage, unless this was the last song of their turn', () => {
    const alone = emptyState({ djs: [dj('ana', 'A2')], nowPlaying: playing, songsRemainingForDj: 0 });
    expect(nextUp(alone)).toEqual({ djUuid: 'ana', song: song('A2'), fromWaitlist: false });
    expect(nextUp({ ...alone, songsRemainingForDj: 2 })?.djUuid).toBe('ana');
    // songsPerDj reached after this one: they leave, and the first in line who may DJ takes the seat.
    const lastSong = {
      ...alone,
      songsRemainingForDj: 1,
      waitlist: ['cy', 'di'],
      allUsers: [
        { uuid: 'cy', canDj: false },
        { uuid: 'di', canDj: true },
      ],
    };
    expect(nextUp(lastSong)).toEqual({ djUuid: 'di', song: null, fromWaitlist: true });
    expect(nextUp({ ...lastSong, waitlist: [] })).toBeNull();
  });

  it('is the next DJ, not the waitlist, when others are on the stage and the one playing leaves', () => {
    const state = emptyState({ djs: [dj('ana'), dj('bo')], nowPlaying: playing, songsRemainingForDj: 1, waitlist: ['cy'] });
    expect(nextUp(state)).toEqual({ djUuid: 'bo', song: null, fromWaitlist: false });
  });

  it('is the first DJ on a silent stage, and nobody on an empty one', () => {
    expect(nextUp(emptyState({ djs: [dj('ana', 'A1'), dj('bo')] }))).toEqual({ djUuid: 'ana', song: song('A1'), fromWaitlist: false });
    expect(playingDj(emptyState({ djs: [dj('ana')] }))).toBeNull();
    expect(nextUp(emptyState())).toBeNull();
  });

  it('counts the time left on the server clock', () => {
    expect(secondsLeft(playing, 150_000)).toBe(50);
    expect(secondsLeft(playing, 250_000)).toBe(0);
  });

  it('offers a seat to someone signed in who may DJ and is not on the stage', () => {
    const state = emptyState({ djs: [dj('ana')], allUsers: [{ uuid: 'ana' }, { uuid: 'bo', canDj: true }, { uuid: 'cy', canDj: false }] });
    expect(mayTakeSeat(state, 'bo', true)).toBe(true);
    expect(mayTakeSeat(state, 'bo', false)).toBe(false);
    expect(mayTakeSeat(state, 'ana', true)).toBe(false);
    expect(mayTakeSeat(state, 'cy', true)).toBe(false);
  });
});

const profile = (nickname: string) => ({
  userProfile: { nickname, avatarId: 'default', color: DEFAULT_PROFILE_COLOR },
  position: { x: 0.5, y: 0.5 },
});
const busy = () =>
  emptyState({
    djs: [dj('ana', 'A2')],
    audienceUsers: [{ uuid: 'bo' }, { uuid: 'cy' }, { uuid: 'di' }],
    allUsers: [{ uuid: 'ana' }, { uuid: 'bo', canDj: true }, { uuid: 'cy' }, { uuid: 'di' }],
    allUserData: { ana: profile('Ana'), bo: profile('Bo'), cy: profile('Cy'), di: profile('Di') },
    nowPlaying: playing,
    songsRemainingForDj: 0,
  });

describe('the stage', () => {
  it('is one tab stop: arrow keys, Home and End walk its people; Enter picks one', () => {
    const picked = vi.fn();
    render(<Scene state={busy()} animations={{}} meUuid="bo" onPick={picked} />);
    const group = screen.getByRole('group', { name: en.peopleInRoom });
    const people = within(group).getAllByRole('button');
    expect(people.map((b) => b.getAttribute('aria-label'))).toEqual(['Ana', 'Bo', 'Cy', 'Di']);
    expect(people.map((b) => b.tabIndex)).toEqual([0, -1, -1, -1]);
    people[0]!.focus();
    fireEvent.keyDown(people[0]!, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(people[1]);
    expect(people.map((b) => b.tabIndex)).toEqual([-1, 0, -1, -1]);
    fireEvent.keyDown(people[1]!, { key: 'End' });
    expect(document.activeElement).toBe(people[3]);
    fireEvent.keyDown(people[3]!, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(people[0]);
    fireEvent.keyDown(people[0]!, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(people[3]);
    fireEvent.click(people[3]!);
    expect(picked).toHaveBeenCalledWith('di');
  });

  it('invites whoever may DJ to a free seat, without a second "Take a seat" for screen readers', () => {
    const take = vi.fn();
    const { container, rerender } = render(<Scene state={busy()} animations={{}} meUuid="bo" onPick={() => {}} onTakeSeat={take} />);
    const invite = container.querySelector<HTMLButtonElement>('.seat-invite')!;
    expect(invite.textContent).toBe('Take a seat');
    expect(invite.getAttribute('aria-hidden')).toBe('true');
    expect(invite.tabIndex).toBe(-1);
    expect(screen.queryByRole('button', { name: 'Take a seat' })).toBeNull();
    fireEvent.click(invite);
    expect(take).toHaveBeenCalledOnce();
    // Someone who may not: the seat only says it is free.
    rerender(<Scene state={busy()} animations={{}} meUuid="cy" onPick={() => {}} />);
    expect(container.querySelector('.seat-invite')).toBeNull();
    expect(container.querySelector('.seat-label')!.textContent).toBe('Free seat');
  });

  it('keeps the focus on someone while they jump', () => {
    const state = busy();
    const { rerender } = render(<Scene state={state} animations={{}} meUuid="bo" onPick={() => {}} />);
    const bo = screen.getByRole('button', { name: 'Bo' });
    bo.focus();
    rerender(<Scene state={state} animations={{ bo: { animation: 'jump', at: Date.now() } }} meUuid="bo" onPick={() => {}} />);
    expect(document.activeElement).toBe(bo);
    expect(bo.querySelector('.figure.jump')).toBeTruthy();
  });
});

describe('the booth', () => {
  it('names who plays, the time left and who is next', () => {
    const clock = new ServerClock();
    vi.spyOn(clock, 'now').mockReturnValue(150_000);
    render(
      <NowPlaying nowPlaying={playing} clock={clock} player={{ state: 'playing' } as never} onEnableAudio={() => {}} state={busy()} />,
    );
    const booth = screen.getByRole('region', { name: en.nowPlaying });
    expect(within(booth).getByTestId('now-dj').textContent).toBe('Ana is playing');
    expect(within(booth).getByTestId('time-left').textContent).toBe('0:50 left');
    expect(within(booth).getByTestId('next-up').textContent).toBe('Next up: Ana A2 — Band');
    expect(within(booth).getByRole('progressbar', { name: en.songProgress }).getAttribute('aria-valuenow')).toBe('150');
  });

  it('says nobody is next on a stage nobody will play', () => {
    const clock = new ServerClock();
    const state = { ...busy(), songsRemainingForDj: 1 };
    render(<NowPlaying nowPlaying={playing} clock={clock} player={{ state: 'playing' } as never} onEnableAudio={() => {}} state={state} />);
    expect(screen.getByTestId('next-up').textContent).toBe('Next up: nobody yet');
  });
});

describe('house rules', () => {
  it('says the limits the room sets, and leaves out those it does not', () => {
    const settings = {
      ...emptyState().settings,
      djType: 'EVERYONE',
      songsPerDj: 2,
      maxSongLengthSeconds: 420,
      repeatWindowMinutes: 0,
      afkLimitMinutes: 1,
      roomSize: 0,
      waitlistEnabled: true,
    } as RoomState['settings'];
    expect(houseRules(settings, en, 'en')).toEqual([
      'Anyone may DJ',
      '2 songs per DJ turn',
      'Songs up to 7:00 long',
      'A DJ idle for 1 minute is warned, then leaves the stage',
      'When the stage is full, the waitlist takes the next free seat',
    ]);
  });
});
