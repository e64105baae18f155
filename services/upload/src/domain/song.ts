import { badRequest, forbidden, isContentModeratorRole, notFound, type Caller } from '@spinroom/platform';

/** Spec 001/002 song statuses (see upload_service.proto and README.md for the transitions). */
export const SONG_STATUSES = [
  'PENDING_UPLOAD',
  'VALID_FILE_TYPE',
  'MISSING_METADATA',
  'VERIFIED',
  'UNVERIFIED',
  'VERIFICATION_ERROR',
  'VERIFICATION_POSTPONED',
] as const;
export type SongStatus = (typeof SONG_STATUSES)[number];

/** Where the song's transcoding stands: queued, retried later or behind a full queue, done, given up. */
export type TranscodeState = 'queued' | 'postponed' | 'ready' | 'failed';

/** The tags a person edits; null when unknown. */
export interface SongTags {
  trackName: string | null;
  artistName: string | null;
  genre: string | null;
  isrc: string | null;
}

export interface Song extends SongTags {
  id: string;
  uploaderUuid: string;
  status: SongStatus;
  transcode: TranscodeState;
  /** A moderator withdrew the song. */
  unverified: boolean;
  durationMs: number;
  fileName: string;
  contentType: string;
  /** ffprobe's format name, e.g. `mp3`, `ogg`, `mov,mp4,m4a,3gp,3g2,mj2`. */
  container: string;
  sizeBytes: number;
  /** The AES-128 key and IV of the song's HLS segments (fresh random bytes per song). */
  hlsKey: Buffer;
  hlsIv: Buffer;
  createdAt: Date;
  updatedAt: Date;
  verifiedAt: Date | null;
}

export const SONG_NOT_FOUND = 'Song not found';
export const SONG_NOT_VERIFIED = 'Song is not verified';
export const TAGS_FORBIDDEN = 'Unauthorized to edit tags that not belongs to the user';
export const DELETE_FORBIDDEN = 'Unauthorized to delete a song that not belongs to the user';
export const MODERATORS_ONLY = 'Only moderators can change whether a song is verified';
export const GUESTS_CANNOT_UPLOAD = 'Guests cannot upload songs';

/** The REST path the BFF serves a song's playlist at (and the catalogue's `uploadService` stream URL). */
export function hlsPlaylistPath(songId: string): string {
  return `/api/upload-service/songs/${songId}/hls-playlist`;
}

export function metadataComplete(tags: Pick<SongTags, 'trackName' | 'artistName'>): boolean {
  return Boolean(tags.trackName && tags.artistName);
}

/**
 * The status a song's facts give. One function decides it, so every change
 * (upload, transcoding outcome, tag edit, moderation) moves the status the same way.
 */
export function deriveStatus(song: Pick<Song, 'unverified' | 'transcode' | 'trackName' | 'artistName'>): SongStatus {
  if (song.unverified) return 'UNVERIFIED';
  if (song.transcode === 'failed') return 'VERIFICATION_ERROR';
  if (!metadataComplete(song)) return 'MISSING_METADATA';
  if (song.transcode === 'ready') return 'VERIFIED';
  if (song.transcode === 'postponed') return 'VERIFICATION_POSTPONED';
  return 'VALID_FILE_TYPE';
}

/** What a change to a song tells the rest of the platform (through the outbox). */
export type Announcement = { kind: 'verified'; song: Song } | { kind: 'withdrawn'; song: Song; reason: 'deleted' | 'unverified' };

const CATALOGUE_FIELDS = ['trackName', 'artistName', 'genre', 'isrc', 'durationMs'] as const;

/**
 * Applies changed facts to a song: the new status, and the announcement the
 * change makes. Becoming VERIFIED (or a verified song's catalogue fields
 * changing) announces `verified`; leaving VERIFIED announces `withdrawn`.
 */
export function changeSong(
  song: Song,
  changes: Partial<Pick<Song, 'transcode' | 'unverified' | keyof SongTags | 'durationMs'>>,
  now = new Date(),
): {
  song: Song;
  announcements: Announcement[];
} {
  const next: Song = { ...song, ...changes, updatedAt: now };
  next.status = deriveStatus(next);
  const wasVerified = song.status === 'VERIFIED';
  if (next.status === 'VERIFIED' && !wasVerified) next.verifiedAt = now;
  const announcements: Announcement[] = [];
  if (next.status === 'VERIFIED') {
    const catalogueChanged = CATALOGUE_FIELDS.some((field) => next[field] !== song[field]);
    if (!wasVerified || catalogueChanged) announcements.push({ kind: 'verified', song: next });
  } else if (wasVerified) {
    announcements.push({ kind: 'withdrawn', song: next, reason: 'unverified' });
  }
  return { song: next, announcements };
}

/** Whether the caller may edit, withdraw and delete anyone's uploads. */
export function isModerator(caller: Caller): boolean {
  return isContentModeratorRole(caller.role);
}

export function isOwner(caller: Caller, song: Pick<Song, 'uploaderUuid'>): boolean {
  return caller.userUuid === song.uploaderUuid;
}

/** The uploader and moderators see every status; everyone else only verified songs. */
export function checkCanSee(caller: Caller, song: Song | null): Song {
  if (!song || !(isOwner(caller, song) || isModerator(caller) || song.status === 'VERIFIED')) throw notFound(SONG_NOT_FOUND);
  return song;
}

export function checkCanEditTags(caller: Caller, song: Song): void {
  if (!isOwner(caller, song) && !isModerator(caller)) throw forbidden(TAGS_FORBIDDEN);
}

export function checkCanDelete(caller: Caller, song: Song): void {
  if (!isOwner(caller, song) && !isModerator(caller)) throw forbidden(DELETE_FORBIDDEN);
}

export function checkCanModerate(caller: Caller): void {
  if (!isModerator(caller)) throw forbidden(MODERATORS_ONLY);
}

export function checkCanUpload(caller: Caller): void {
  if (caller.kind === 'guest') throw forbidden(GUESTS_CANNOT_UPLOAD);
}

export const TRACK_NAME_MAX = 255;
export const GENRE_MAX = 64;

/** `US-RC1-76-07839` or `usrc17607839` -> `USRC17607839`; null when it is no ISRC. */
export function normalizeIsrc(value: string): string | null {
  const compact = value.replace(/[\s-]/g, '').toUpperCase();
  return /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/.test(compact) ? compact : null;
}

/**
 * Tags a person typed (form fields, PATCH, POST /metadata), checked. Unset
 * stays unset; track and artist names cannot be emptied; an empty genre or
 * isrc clears it.
 */
export function checkTagEdit(input: Partial<Record<keyof SongTags, string | undefined>>): Partial<SongTags> {
  const edit: Partial<SongTags> = {};
  for (const field of ['trackName', 'artistName'] as const) {
    const value = input[field];
    if (value === undefined) continue;
    const trimmed = value.trim();
    if (trimmed.length === 0) throw badRequest(`${field} must not be empty`);
    if (trimmed.length > TRACK_NAME_MAX) throw badRequest(`${field} must be at most ${TRACK_NAME_MAX} characters`);
    edit[field] = trimmed;
  }
  if (input.genre !== undefined) {
    const genre = input.genre.trim();
    if (genre.length > GENRE_MAX) throw badRequest(`genre must be at most ${GENRE_MAX} characters`);
    edit.genre = genre || null;
  }
  if (input.isrc !== undefined) {
    if (input.isrc.trim() === '') edit.isrc = null;
    else {
      const isrc = normalizeIsrc(input.isrc);
      if (!isrc) throw badRequest('isrc must be an ISRC like USRC17607839');
      edit.isrc = isrc;
    }
  }
  return edit;
}

/**
 * Tags read from the file (ffprobe's format and stream tags, any case):
 * title, artist (or album artist), genre, ISRC (`TSRC` in ID3). Bad values
 * are dropped rather than refused: the uploader can fix them later.
 */
export function tagsFromFile(raw: Record<string, string>): SongTags {
  const lower = new Map(Object.entries(raw).map(([k, v]) => [k.toLowerCase(), String(v).trim()]));
  const pick = (max: number, ...keys: string[]) => {
    for (const key of keys) {
      const value = lower.get(key);
      if (value) return value.slice(0, max);
    }
    return null;
  };
  const isrc = pick(32, 'isrc', 'tsrc');
  return {
    trackName: pick(TRACK_NAME_MAX, 'title'),
    artistName: pick(TRACK_NAME_MAX, 'artist', 'album_artist', 'albumartist', 'performer'),
    genre: pick(GENRE_MAX, 'genre'),
    isrc: isrc ? normalizeIsrc(isrc) : null,
  };
}

/** Form fields win over the file's own tags. */
export function mergeTags(fromFile: SongTags, fromForm: Partial<SongTags>): SongTags {
  return {
    trackName: fromForm.trackName ?? fromFile.trackName,
    artistName: fromForm.artistName ?? fromFile.artistName,
    genre: fromForm.genre !== undefined ? fromForm.genre : fromFile.genre,
    isrc: fromForm.isrc !== undefined ? fromForm.isrc : fromFile.isrc,
  };
}

export interface PageRequest {
  limit: number;
  offset: number;
}

/** limit 1..100 (20 when unset or 0), offset >= 0. */
export function checkPage(page: { limit?: number; offset?: number } | undefined): PageRequest {
  const limit = page?.limit || 20;
  const offset = page?.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw badRequest('limit must be between 1 and 100');
  if (!Number.isInteger(offset) || offset < 0) throw badRequest('offset must not be negative');
  return { limit, offset };
}
