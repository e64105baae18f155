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

/**
 * Songs gathered for the sameness rule, answering `has` without comparing
 * every pair: what isSameSong matches on (ids, isrc, provider ids, and names
 * with durations), kept in maps. Crate entry ids are not kept: a set holds songs.
 */
export class SameSongSet {
  private readonly keys = new Set<string>();
  private readonly durationsByName = new Map<string, number[]>();

  constructor(songs: Iterable<SongIdentity> = []) {
    for (const song of songs) this.add(song);
  }

  has(song: SongIdentity): boolean {
    if (identityKeys(song).some((key) => this.keys.has(key))) return true;
    const durations = this.durationsByName.get(nameKey(song)) ?? [];
    return durations.some((d) => Math.abs(d - song.duration) <= DURATION_TOLERANCE_SECONDS);
  }

  add(song: SongIdentity): void {
    for (const key of identityKeys(song)) this.keys.add(key);
    const name = nameKey(song);
    this.durationsByName.set(name, [...(this.durationsByName.get(name) ?? []), song.duration]);
  }
}

function identityKeys(song: SongIdentity): string[] {
  const keys: string[] = [];
  if (song.songId) keys.push(`id\0${song.songId}`);
  if (song.songShortId) keys.push(`short\0${song.songShortId}`);
  if (song.isrc) keys.push(`isrc\0${song.isrc.toUpperCase()}`);
  for (const [provider, id] of Object.entries(song.musicProviders ?? {})) if (id) keys.push(`provider\0${provider}\0${id}`);
  return keys;
}

function nameKey(song: SongIdentity): string {
  return `${song.trackName.trim().toLowerCase()}\0${song.artistName.trim().toLowerCase()}`;
}
