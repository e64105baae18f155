import { defineEntity, p } from '@mikro-orm/postgresql';
import type { ImportStatus, SpecialCrateKind } from '../domain/crate.js';

/** `song`: the catalogue. */
export const SongEntity = defineEntity({
  name: 'Song',
  tableName: 'song',
  properties: {
    id: p.integer().primary().autoincrement(),
    songId: p.uuid().unique(),
    songShortId: p.string().unique(),
    isrc: p.string(),
    trackName: p.string(),
    artistName: p.string(),
    duration: p.integer(),
    explicit: p.boolean(),
    genre: p.string(),
    releaseYear: p.integer().nullable(),
    albumName: p.string(),
    musicProviders: p.json<Record<string, string>>(),
    thumbnails: p.json<Record<string, string>>(),
    links: p.json<Record<string, string>>(),
    previews: p.json<Record<string, string>>(),
    streamUrls: p.json<Record<string, string>>(),
    status: p.string(),
    playbackToken: p.string(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** `crate`: a user's playlist; `special` marks the queue and likes crates. */
export const CrateEntity = defineEntity({
  name: 'Crate',
  tableName: 'crate',
  properties: {
    id: p.integer().primary().autoincrement(),
    crateUuid: p.uuid().unique(),
    crateShortId: p.string().unique(),
    userUuid: p.uuid(),
    crateName: p.string(),
    description: p.string(),
    isPublic: p.boolean(),
    special: p.string().$type<SpecialCrateKind>().nullable(),
    currentPosition: p.integer(),
    importStatus: p.string().$type<ImportStatus>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
