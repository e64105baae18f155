import type { LiveRoom } from './state.js';
import type { Effect } from './transitions.js';

/**
 * A stored change's effects until they have run. The store writes them in the
 * same script as the change itself, so a change is never stored without them;
 * each is removed once it ran, and whatever a crash (or a failure) left behind
 * is run again later, by any replica. Each has a key that names what it does
 * once, and the receiving side applies a key once (the play record by play id,
 * the requeue and the snag in the playlist service by their keys), so running
 * one again changes nothing.
 */
export interface PendingEffect {
  /**
   * `played:<play>`, `requeue:<play>`, `snag:<play>:<user>`,
   * `stage:<change>`, or `refresh:<dj>` (a later refresh of the same DJ
   * replaces a pending one: it reads their queue when it runs).
   */
  key: string;
  /** The room's revision the change was stored as, and the effect's place in it: the order effects run in. */
  rev: number;
  index: number;
  /** When the change was stored (ms). */
  at: number;
  effect: Effect;
}

/** An effect pending for longer than this failed every time for a day: it is dropped (and logged). */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;

export function effectKey(effect: Effect): string {
  switch (effect.type) {
    case 'songPlayed':
      return `played:${effect.playId}`;
    case 'requeue':
      return `requeue:${effect.playId}`;
    case 'snag':
      return `snag:${effect.playId}:${effect.userUuid}`;
    case 'refreshNextSong':
      return `refresh:${effect.djUuid}`;
    case 'stageChanged':
      return `stage:${effect.changeId}`;
  }
}

/**
 * The stage change a stored change made (who took a seat, who left one), or
 * null when it seated and unseated no one. `changeId` names it once and for
 * all: replayed, it is announced under the same event id.
 */
export function stageChange(before: LiveRoom, after: LiveRoom, changeId: string, at: number): Effect | null {
  const was = new Set(before.client.djs.map((d) => d.uuid));
  const djs = after.client.djs.map((d) => d.uuid);
  const now = new Set(djs);
  const added = djs.filter((uuid) => !was.has(uuid));
  const removed = [...was].filter((uuid) => !now.has(uuid));
  if (added.length === 0 && removed.length === 0) return null;
  return { type: 'stageChanged', changeId, roomUuid: after.roomUuid, added, removed, djs, numberOfDjs: after.rules.numberOfDjs, at };
}

/** A change's effects as they are kept (`rev`: the revision it is stored as), one per key: the later of two replaces the earlier. */
export function pendingEffects(effects: readonly Effect[], rev: number, at: number): PendingEffect[] {
  const byKey = new Map<string, Effect>();
  for (const effect of effects) {
    const key = effectKey(effect);
    byKey.delete(key);
    byKey.set(key, effect);
  }
  return [...byKey].map(([key, effect], index) => ({ key, rev, index, at, effect }));
}

/** How a pending effect is kept (its key apart): also what its acknowledgement compares, so a newer one under the same key stays. */
export function encodePending(pending: PendingEffect): string {
  return JSON.stringify({ rev: pending.rev, index: pending.index, at: pending.at, effect: pending.effect });
}

/** A kept effect, or null when it cannot be read (it is dropped). */
export function decodePending(key: string, json: string): PendingEffect | null {
  try {
    const { rev, index, at, effect } = JSON.parse(json) as Partial<Omit<PendingEffect, 'key'>>;
    if (typeof rev !== 'number' || typeof index !== 'number' || typeof at !== 'number' || !effect || effectKey(effect) !== key) return null;
    return { key, rev, index, at, effect };
  } catch {
    return null;
  }
}

/** The order to run a room's pending effects in (`of`: each item's effect): as they were stored, a requeue before the refresh after it. */
export function replayOrder<T>(items: readonly T[], of: (item: T) => PendingEffect): T[] {
  return [...items].sort((a, b) => of(a).rev - of(b).rev || of(a).index - of(b).index);
}

/**
 * Whether an effect's failure (the HTTP status the other side answered) will
 * not pass by trying again: the request itself was refused (a song that cannot
 * be catalogued, a full crate). Such an effect is dropped at once; any other
 * failure (a service down, a timeout, a token refused) is tried again.
 */
export function refusedForGood(status: number | undefined): boolean {
  return status === 400 || status === 404 || status === 409 || status === 410 || status === 413 || status === 422;
}

/** Whether a pending effect has failed long enough to be dropped. */
export function givenUp(pending: PendingEffect, now: number, afterMs = GIVE_UP_AFTER_MS): boolean {
  return now - pending.at > afterMs;
}
