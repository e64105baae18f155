import { MUSIC_PROVIDERS, type MusicProviderName as MusicProvider } from '@spinroom/contracts/vocabulary';

// Music providers of spec 002 (the full set; songs from any of them can sit in a crate), listed once in room_vocabulary.proto.
export { MUSIC_PROVIDERS, type MusicProvider };

/** A catalogue song (spec 002 "Song"). Maps are keyed by provider. */
export interface Song {
  id: number;
  songId: string;
  songShortId: string;
  isrc: string;
  trackName: string;
  artistName: string;
  /** Seconds. */
  duration: number;
  explicit: boolean;
  genre: string;
  releaseYear?: number | null;
  albumName: string;
  musicProviders: Record<string, string>;
  thumbnails: Record<string, string>;
  links: Record<string, string>;
  previews: Record<string, string>;
  streamUrls: Record<string, string>;
  status: string;
  playbackToken: string;
}

/** What identifies a song for the sameness rule. */
export type SongIdentity = Pick<Song, 'trackName' | 'artistName' | 'duration'> &
  Partial<Pick<Song, 'songId' | 'songShortId' | 'isrc' | 'musicProviders'>> & { crateSongUuid?: string };

export const DURATION_TOLERANCE_SECONDS = 5;

/**
 * Spec 002's song sameness: the same crate entry, or the same songId,
 * songShortId or isrc, or a provider id in common, or a duration within 5 s
 * with equal track and artist names (case-insensitive).
 */
export function isSameSong(a: SongIdentity, b: SongIdentity): boolean {
  const equal = (x?: string, y?: string) => !!x && !!y && x === y;
  if (equal(a.crateSongUuid, b.crateSongUuid) || equal(a.songId, b.songId)) return true;
  if (equal(a.songShortId, b.songShortId) || equal(a.isrc?.toUpperCase(), b.isrc?.toUpperCase())) return true;
  for (const [provider, id] of Object.entries(a.musicProviders ?? {})) {
    if (equal(id, b.musicProviders?.[provider])) return true;
  }
  return (
    Math.abs(a.duration - b.duration) <= DURATION_TOLERANCE_SECONDS &&
    a.trackName.trim().toLowerCase() === b.trackName.trim().toLowerCase() &&
    a.artistName.trim().toLowerCase() === b.artistName.trim().toLowerCase()
  );
}
