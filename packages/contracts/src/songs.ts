import type { CrateSong } from './gen/spinroom/playlist/v1/playlist_service.js';
import type { MinimalCrateSong } from './gen/spinroom/room/v1/minimal_crate_song.js';

/**
 * `MinimalCrateSongResDTO` as JSON: the shape the room feed, the room state and
 * the recent songs carry. `genre`, `isrc` and `playbackToken` are null when
 * unknown; the other optional fields are left out when absent.
 */
export interface MinimalCrateSongJson {
  artistName: string;
  trackName: string;
  genre: string | null;
  duration: number;
  isrc: string | null;
  musicProviders: Record<string, string>;
  playbackToken: string | null;
  thumbnails: Record<string, string>;
  songShortId?: string;
  crateSongUuid?: string;
  status?: string;
  position?: number;
  songId?: string;
  explicit?: boolean;
  links?: Record<string, string>;
  previews?: Record<string, string>;
  streamUrls?: Record<string, string>;
}

/** The typed message for a song in its JSON shape. */
export function songFromJson(song: MinimalCrateSongJson): MinimalCrateSong {
  return {
    artistName: song.artistName,
    trackName: song.trackName,
    ...(song.genre !== null ? { genre: song.genre } : {}),
    duration: song.duration,
    ...(song.isrc !== null ? { isrc: song.isrc } : {}),
    musicProviders: { ...song.musicProviders },
    ...(song.playbackToken !== null ? { playbackToken: song.playbackToken } : {}),
    thumbnails: { ...song.thumbnails },
    ...(song.songShortId !== undefined ? { songShortId: song.songShortId } : {}),
    ...(song.crateSongUuid !== undefined ? { crateSongUuid: song.crateSongUuid } : {}),
    ...(song.status !== undefined ? { status: song.status } : {}),
    ...(song.position !== undefined ? { position: song.position } : {}),
    ...(song.songId !== undefined ? { songId: song.songId } : {}),
    ...(song.explicit !== undefined ? { explicit: song.explicit } : {}),
    links: { ...song.links },
    previews: { ...song.previews },
    streamUrls: { ...song.streamUrls },
  };
}

/** A song message back in its JSON shape (empty optional maps left out, as clients sent them). */
export function songToJson(song: MinimalCrateSong): MinimalCrateSongJson {
  const nonEmpty = (map: Record<string, string>) => (Object.keys(map).length > 0 ? map : undefined);
  const json: MinimalCrateSongJson = {
    artistName: song.artistName,
    trackName: song.trackName,
    genre: song.genre ?? null,
    duration: song.duration,
    isrc: song.isrc ?? null,
    musicProviders: { ...song.musicProviders },
    playbackToken: song.playbackToken ?? null,
    thumbnails: { ...song.thumbnails },
  };
  if (song.songShortId !== undefined) json.songShortId = song.songShortId;
  if (song.crateSongUuid !== undefined) json.crateSongUuid = song.crateSongUuid;
  if (song.status !== undefined) json.status = song.status;
  if (song.position !== undefined) json.position = song.position;
  if (song.songId !== undefined) json.songId = song.songId;
  if (song.explicit !== undefined) json.explicit = song.explicit;
  const links = nonEmpty(song.links);
  if (links) json.links = { ...links };
  const previews = nonEmpty(song.previews);
  if (previews) json.previews = { ...previews };
  const streamUrls = nonEmpty(song.streamUrls);
  if (streamUrls) json.streamUrls = { ...streamUrls };
  return json;
}

/** A DJ's queue entry (the playlist's CrateSong) as the feed carries it: the catalogue song, its place in the crate, unknown texts null. */
export function crateSongToJson(entry: CrateSong): MinimalCrateSongJson {
  const s = entry.song!;
  return {
    songId: s.songId,
    songShortId: s.songShortId,
    artistName: s.artistName,
    trackName: s.trackName,
    genre: s.genre || null,
    duration: s.duration,
    isrc: s.isrc || null,
    explicit: s.explicit,
    musicProviders: s.musicProviders,
    thumbnails: s.thumbnails,
    links: s.links,
    previews: s.previews,
    streamUrls: s.streamUrls,
    playbackToken: s.playbackToken || null,
    status: s.status,
    crateSongUuid: entry.crateSongUuid,
    position: entry.position,
  };
}

/**
 * A catalogue search's text as its kept answers are keyed, the BFF's and the
 * playlist service's alike: any case and spacing of the same words is one search.
 */
export function searchKeyText(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}
