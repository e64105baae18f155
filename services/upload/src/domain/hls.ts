import { createHmac, timingSafeEqual } from 'node:crypto';
import { forbidden } from '@spinroom/platform';

/** How the transcoder writes a song's HLS: what it names things, and what the served playlist says instead. */
export const HLS = {
  /** Target segment length (seconds); AAC segments end on a packet boundary near it. */
  segmentSeconds: 6,
  /** AAC-LC stereo 44.1 kHz at this bitrate. */
  audioBitrate: '160k',
  playlistName: 'index.m3u8',
  segmentPattern: 'segment-%05d.ts',
  segmentName: /^segment-\d{5}\.ts$/,
  /** The key URI ffmpeg writes; every served playlist replaces it with a signed one. */
  keyUriPlaceholder: 'spinroom-hls-key',
  playlistContentType: 'application/vnd.apple.mpegurl',
  segmentContentType: 'video/mp2t',
} as const;

/** Object-store keys of a song's files. */
export const objectKeys = {
  original: (songId: string) => `originals/${songId}`,
  hlsPrefix: (songId: string) => `hls/${songId}/`,
  playlist: (songId: string) => `hls/${songId}/${HLS.playlistName}`,
  segment: (songId: string, name: string) => `hls/${songId}/${name}`,
};

export function segmentPath(songId: string, segment: string): string {
  return `/api/upload-service/songs/${songId}/hls/${segment}`;
}

/**
 * The playlist as a caller gets it: segment URIs become the BFF's segment
 * paths and the key URI the caller's signed one. Anything unexpected in the
 * stored playlist (a foreign URI) is refused rather than passed on.
 */
export function rewritePlaylist(stored: string, songId: string, keyUri: string): string {
  return stored
    .split('\n')
    .map((line) => {
      const trimmed = line.trim();
      if (trimmed.startsWith('#EXT-X-KEY:')) {
        return trimmed.replace(/URI="[^"]*"/, `URI="${keyUri}"`);
      }
      if (trimmed === '' || trimmed.startsWith('#')) return trimmed;
      if (!HLS.segmentName.test(trimmed)) throw new Error(`unexpected playlist entry: ${trimmed}`);
      return segmentPath(songId, trimmed);
    })
    .join('\n');
}

/** Sum of the segments' `#EXTINF` durations, in milliseconds. */
export function playlistDurationMs(playlist: string): number {
  let total = 0;
  for (const match of playlist.matchAll(/^#EXTINF:([\d.]+)/gm)) total += Number(match[1]);
  return Math.round(total * 1000);
}

export const KEY_TOKEN_INVALID = 'The key link is invalid or has expired';

export interface KeyTokenFields {
  songId: string;
  user: string;
  expires: string;
  signature: string;
}

/**
 * Short-lived, signed key links. An HLS player fetches the key without our
 * bearer token, so the playlist (which needs one) embeds an HMAC-signed
 * `songId, user, expires` in the key URI; only the upload service knows the secret.
 */
export class KeyTokens {
  constructor(
    private readonly secret: string,
    private readonly ttlSeconds: number,
  ) {}

  /** The key URI for one caller and song, and until when it works. */
  keyUri(songId: string, userUuid: string, now = new Date()): { uri: string; expiresAt: Date } {
    const expires = String(Math.floor(now.getTime() / 1000) + this.ttlSeconds);
    const signature = this.sign(songId, userUuid, expires);
    const query = new URLSearchParams({ songId, user: userUuid, expires, signature });
    return { uri: `/api/upload-service/songs/hls/key?${query.toString()}`, expiresAt: new Date(Number(expires) * 1000) };
  }

  /** 403 unless the fields were signed here and have not expired. */
  verify(fields: KeyTokenFields, now = new Date()): void {
    const expected = Buffer.from(this.sign(fields.songId, fields.user, fields.expires));
    const given = Buffer.from(fields.signature);
    const valid = given.length === expected.length && timingSafeEqual(given, expected);
    const expires = /^\d{1,12}$/.test(fields.expires) ? Number(fields.expires) : 0;
    if (!valid || expires * 1000 < now.getTime()) throw forbidden(KEY_TOKEN_INVALID);
  }

  private sign(songId: string, user: string, expires: string): string {
    return createHmac('sha256', this.secret).update(`hls-key\n${songId}\n${user}\n${expires}`).digest('base64url');
  }
}
