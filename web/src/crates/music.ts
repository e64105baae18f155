// Plain helpers for getting music into crates: which crate is which, and what
// to send to add a song met anywhere (search, a public crate, the room, an upload).
import type { SongToAdd } from '../api/spinroom';
import type { Crate, Song, UploadedSong } from '../api/types';
import type { Strings } from '../i18n/en';

/** The caller's queue and likes have paths of their own, so they can take songs before the crate list shows them. */
export const QUEUE: Crate = { crateUuid: 'queue', crateName: 'Queue', userUuid: '', special: 'queue' };
export const LIKES: Crate = { crateUuid: 'likes', crateName: 'Likes', userUuid: '', special: 'likes' };

/** A crate's name as the reader sees it: the queue and likes in their language. */
export function crateLabel(crate: Pick<Crate, 'special' | 'crateName'>, t: Strings): string {
  return crate.special === 'queue' ? t.yourQueue : crate.special === 'likes' ? t.likes : crate.crateName;
}

/**
 * Where a grab can go: likes first (the default, the classic snag), then the
 * caller's own crates; never the queue, which has its own button.
 */
export function grabTargets(own: readonly Crate[] | undefined): Crate[] {
  const likes = own?.find((c) => c.special === 'likes') ?? LIKES;
  return [likes, ...(own ?? []).filter((c) => !c.special)];
}

/**
 * What to send to add a song: its catalogue id when it has one (a crate's, the
 * feed's, the catalogue search's), else a provider's song as that provider
 * knows it (`provider`, or the first it is on).
 */
export function songToAdd(song: Song, provider = 'catalogue'): SongToAdd {
  if (provider === 'catalogue' && song.songId) return { songId: song.songId };
  const name = provider === 'catalogue' ? Object.keys(song.musicProviders ?? {})[0] : provider;
  const id = (name && song.musicProviders?.[name]) || song.songId || '';
  if (!name) return { songId: id };
  return {
    musicProvider: name,
    songId: id,
    trackName: song.trackName,
    artistName: song.artistName,
    duration: song.duration,
    ...(song.isrc ? { isrc: song.isrc } : {}),
  };
}

/**
 * A verified upload as a song: added by the upload's songId (the playlist
 * service finds the song catalogued from it), and the same song, by the
 * sameness rule, as that catalogued song (its `uploadService` provider id).
 */
export function uploadAsSong(upload: UploadedSong): Song {
  return {
    trackName: upload.trackName ?? upload.fileName,
    artistName: upload.artistName ?? '',
    duration: upload.duration,
    musicProviders: { uploadService: upload.songId },
  };
}
