import { badRequest, notFound } from '@spinroom/platform';
import type { Song } from './song.js';

export const STREAM_QUALITIES = ['low', 'medium', 'high'] as const;
export type StreamQuality = (typeof STREAM_QUALITIES)[number];
/** Spec 002: the default audio quality. */
export const DEFAULT_QUALITY: StreamQuality = 'medium';
/** Spec 002: the track-play country. */
export const DEFAULT_COUNTRY = 'US';
export const NO_STREAM = 'No stream for this song';
export const NO_PREVIEW = 'No preview for this song';
/** 7digital honours a signed stream or clip link for an hour. */
export const SIGNED_LINK_TTL_MS = 60 * 60 * 1000;

export interface SongStream {
  songId: string;
  musicProvider: string;
  url: string;
  /** hls: an HLS playlist; stream: a full-length file; preview: a short clip. */
  kind: 'hls' | 'stream' | 'preview';
  quality: StreamQuality;
  country: string;
  expiresAt?: Date;
}

/** What signs 7digital's links (the adapter); null when it cannot (no secret, a foreign id). */
export interface SevenDigitalLinks {
  enabled: boolean;
  streamUrl(id: string, options: { country: string; quality: StreamQuality }): string | null;
  previewUrl(id: string, options: { country: string }): string | null;
}

export function streamQuality(value: string): StreamQuality {
  if (!value) return DEFAULT_QUALITY;
  if (!(STREAM_QUALITIES as readonly string[]).includes(value)) throw badRequest('quality must be low, medium or high');
  return value as StreamQuality;
}

export function streamCountry(value: string): string {
  if (!value) return DEFAULT_COUNTRY;
  if (!/^[A-Za-z]{2}$/.test(value)) throw badRequest('country must be a two-letter country code');
  return value.toUpperCase();
}

/**
 * Where a catalogue song plays in full: its upload's HLS playlist first (ours,
 * any quality), then a signed 7digital stream, else the first preview a
 * provider offers (7digital's signed clip, then the stored ones).
 */
export function chooseStream(
  song: Song,
  sevenDigital: SevenDigitalLinks,
  options: { country: string; quality: StreamQuality },
  now: number,
): SongStream {
  const base = { songId: song.songId, quality: options.quality, country: options.country };
  const upload = song.streamUrls.uploadService;
  if (upload) return { ...base, musicProvider: 'uploadService', url: upload, kind: 'hls' };
  const sevenDigitalId = song.musicProviders.sevenDigital;
  if (sevenDigitalId && sevenDigital.enabled) {
    const url = sevenDigital.streamUrl(sevenDigitalId, options);
    if (url) return { ...base, musicProvider: 'sevenDigital', url, kind: 'stream', expiresAt: new Date(now + SIGNED_LINK_TTL_MS) };
  }
  const preview = choosePreview(song, sevenDigital, options.country, now);
  if (preview) return { ...preview, quality: options.quality };
  throw notFound(NO_STREAM);
}

/** A short clip: 7digital's (signed), else one a provider gave us, else an upload's own playlist. */
export function choosePreview(song: Song, sevenDigital: SevenDigitalLinks, country: string, now: number): SongStream | null {
  const base = { songId: song.songId, quality: DEFAULT_QUALITY, country, kind: 'preview' as SongStream['kind'] };
  const sevenDigitalId = song.musicProviders.sevenDigital;
  if (sevenDigitalId && sevenDigital.enabled) {
    const url = sevenDigital.previewUrl(sevenDigitalId, { country });
    if (url) return { ...base, musicProvider: 'sevenDigital', url, expiresAt: new Date(now + SIGNED_LINK_TTL_MS) };
  }
  const stored = Object.entries(song.previews).find(([, url]) => !!url);
  if (stored) return { ...base, musicProvider: stored[0], url: stored[1] };
  const upload = song.streamUrls.uploadService;
  if (upload) return { ...base, musicProvider: 'uploadService', url: upload, kind: 'hls' };
  return null;
}

export function previewOrNotFound(preview: SongStream | null): SongStream {
  if (!preview) throw notFound(NO_PREVIEW);
  return preview;
}
