import {
  ImportStatus,
  SpecialCrate,
  type Crate as CrateMessage,
  type CrateRef as CrateRefMessage,
  type CrateSong as CrateSongMessage,
  type Song as SongMessage,
  type SongToAdd as SongToAddMessage,
} from '@spinroom/contracts/playlist/v1/playlist_service';
import { badRequest } from '@spinroom/platform';
import type { CrateEntry } from '../db/crate-store.js';
import type { Crate, SpecialCrateKind } from '../domain/crate.js';
import type { CrateRef, SongToAdd } from '../domain/crates.js';
import type { Song } from '../domain/song.js';

const SPECIAL: Record<SpecialCrateKind, SpecialCrate> = {
  queue: SpecialCrate.SPECIAL_CRATE_QUEUE,
  likes: SpecialCrate.SPECIAL_CRATE_LIKES,
};
const IMPORT: Record<Crate['importStatus'], ImportStatus> = {
  IN_PROGRESS: ImportStatus.IMPORT_STATUS_IN_PROGRESS,
  FAILED: ImportStatus.IMPORT_STATUS_FAILED,
  COMPLETE: ImportStatus.IMPORT_STATUS_COMPLETE,
};

export function toCrateRef(ref: CrateRefMessage | undefined): CrateRef {
  if (ref?.special === SpecialCrate.SPECIAL_CRATE_QUEUE) return { special: 'queue' };
  if (ref?.special === SpecialCrate.SPECIAL_CRATE_LIKES) return { special: 'likes' };
  if (ref?.crateShortId) return { crateShortId: ref.crateShortId };
  if (!ref?.crateUuid) throw badRequest('crate is required');
  return { crateUuid: ref.crateUuid };
}

export function toSongToAdd(song: SongToAddMessage): SongToAdd {
  if (song.songId) return { songId: song.songId };
  if (song.catalogueId) return { catalogueId: song.catalogueId };
  return {
    musicProvider: song.musicProvider,
    providerSongId: song.providerSongId,
    trackName: song.trackName,
    artistName: song.artistName,
    duration: song.duration,
    isrc: song.isrc,
    genre: song.genre,
    playbackToken: song.playbackToken,
    explicit: song.explicit,
    thumbnails: song.thumbnails,
  };
}

export function toCrateMessage(crate: Crate): CrateMessage {
  return {
    crateUuid: crate.crateUuid,
    crateShortId: crate.crateShortId,
    crateName: crate.crateName,
    description: crate.description,
    userUuid: crate.userUuid,
    isPublic: crate.isPublic,
    special: crate.special ? SPECIAL[crate.special] : SpecialCrate.SPECIAL_CRATE_UNSPECIFIED,
    crateSongsNumber: crate.songCount,
    currentPosition: crate.currentPosition,
    importStatus: IMPORT[crate.importStatus],
    thumbnails: {},
    createdAt: crate.createdAt,
    updatedAt: crate.updatedAt,
  };
}

export function toSongMessage(song: Song): SongMessage {
  return {
    id: song.id,
    songId: song.songId,
    songShortId: song.songShortId,
    isrc: song.isrc,
    trackName: song.trackName,
    artistName: song.artistName,
    duration: song.duration,
    explicit: song.explicit,
    genre: song.genre,
    releaseYear: song.releaseYear ?? undefined,
    albumName: song.albumName,
    musicProviders: song.musicProviders,
    thumbnails: song.thumbnails,
    links: song.links,
    previews: song.previews,
    streamUrls: song.streamUrls,
    status: song.status,
    playbackToken: song.playbackToken,
  };
}

export function toCrateSongMessage(entry: CrateEntry): CrateSongMessage {
  return { crateSongUuid: entry.crateSongUuid, position: entry.position, song: toSongMessage(entry.song) };
}
