// Spec 002: anonymous visitors stop playing after a free preview limit of
// songs, the counter kept locally. A song counts once (a room's play of it,
// by song and end time), when it starts to play; one that cannot play is not counted.
import { FREE_PREVIEW_SONGS } from './config';

const KEY = 'spinroom.preview-songs';

function heard(): string[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** How many free songs this browser has heard. */
export function previewSongsHeard(): number {
  return heard().length;
}

/** Whether this play may be heard: one already counted, or a new one while the limit is not reached. */
export function mayPreview(play: string, limit = FREE_PREVIEW_SONGS): boolean {
  const songs = heard();
  return songs.includes(play) || songs.length < limit;
}

/** Counts a play that started (once). */
export function countPreviewSong(play: string): void {
  const songs = heard();
  if (songs.includes(play)) return;
  songs.push(play);
  try {
    localStorage.setItem(KEY, JSON.stringify(songs));
  } catch {
    // private mode: counted for this page only
  }
}

/** Whether the limit is used up (a new song would not play). */
export function previewLimitReached(limit = FREE_PREVIEW_SONGS): boolean {
  return heard().length >= limit;
}
