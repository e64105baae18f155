import { ImportStatus, SpecialCrate, type Crate, type CrateSong, type Song } from '@spinroom/contracts/playlist/v1/playlist_service';
import type { z } from 'zod';
import { present } from '../../http/upstream.js';
import type { CrateSchema, CrateSongSchema, SongDataSchema } from './schemas.js';

const SPECIAL_NAMES: Partial<Record<SpecialCrate, 'queue' | 'likes'>> = {
  [SpecialCrate.SPECIAL_CRATE_QUEUE]: 'queue',
  [SpecialCrate.SPECIAL_CRATE_LIKES]: 'likes',
};
const IMPORT_NAMES: Partial<Record<ImportStatus, 'IN_PROGRESS' | 'FAILED' | 'COMPLETE'>> = {
  [ImportStatus.IMPORT_STATUS_IN_PROGRESS]: 'IN_PROGRESS',
  [ImportStatus.IMPORT_STATUS_FAILED]: 'FAILED',
  [ImportStatus.IMPORT_STATUS_COMPLETE]: 'COMPLETE',
};

export function crateJson(crate: Crate | undefined): z.infer<typeof CrateSchema> {
  const c = present(crate);
  return {
    crateUuid: c.crateUuid,
    crateShortId: c.crateShortId,
    crateName: c.crateName,
    description: c.description,
    userUuid: c.userUuid,
    isPublic: c.isPublic,
    special: SPECIAL_NAMES[c.special] ?? null,
    crateSongsNumber: c.crateSongsNumber,
    currentPosition: c.currentPosition,
    importStatus: IMPORT_NAMES[c.importStatus] ?? 'COMPLETE',
    thumbnails: c.thumbnails,
    createdAt: (c.createdAt ?? new Date(0)).toISOString(),
    updatedAt: (c.updatedAt ?? new Date(0)).toISOString(),
  };
}

export function songJson(song: Song | undefined): z.infer<typeof CrateSongSchema> {
  const s = present(song);
  return { ...s, releaseYear: s.releaseYear ?? null };
}

export function crateSongJson(entry: CrateSong): z.infer<typeof CrateSongSchema> {
  return { ...songJson(entry.song), crateSongUuid: entry.crateSongUuid, position: entry.position };
}

export function songDataJson(song: Song | undefined): z.infer<typeof SongDataSchema> {
  const s = songJson(song);
  return { ...s, musicProvidersIds: s.musicProviders, album: s.albumName ? { name: s.albumName } : null, artist: { name: s.artistName } };
}
