import { SongStatus, type Song } from '@spinroom/contracts/upload/v1/upload_service';
import { AppError } from '@spinroom/platform/core';
import type { z } from 'zod';
import { present } from '../../http/upstream.js';
import { SONG_STATUS_NAMES, type UploadedSongSchema } from './schemas.js';

type StatusName = (typeof SONG_STATUS_NAMES)[number];

/** The proto enum as the spec's status name. */
export function statusName(status: SongStatus): StatusName {
  const name = SongStatus[status]?.replace(/^SONG_STATUS_/, '');
  if (!name || !SONG_STATUS_NAMES.includes(name as StatusName)) throw new AppError(502, 'Bad Gateway');
  return name as StatusName;
}

/** An uploaded song as REST clients read it: every field present, null when unknown. */
export function songJson(song: Song | undefined): z.infer<typeof UploadedSongSchema> {
  const s = present(song);
  return {
    songId: s.songId,
    trackName: s.trackName ?? null,
    artistName: s.artistName ?? null,
    duration: s.durationSeconds,
    durationMs: s.durationMs,
    genre: s.genre ?? null,
    isrc: s.isrc ?? null,
    explicit: false,
    status: statusName(s.status),
    musicProviders: { uploadService: s.songId },
    thumbnails: {},
    links: {},
    previews: {},
    streamUrls: { uploadService: s.hlsPlaylistPath },
    playbackToken: null,
    uploaderUuid: s.uploaderUuid,
    fileName: s.fileName,
    contentType: s.contentType,
    sizeBytes: s.sizeBytes,
    createdAt: (s.createdAt ?? new Date(0)).toISOString(),
    updatedAt: (s.updatedAt ?? new Date(0)).toISOString(),
    verifiedAt: s.verifiedAt ? s.verifiedAt.toISOString() : null,
  };
}
