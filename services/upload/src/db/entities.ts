import { defineEntity, p } from '@mikro-orm/postgresql';
import type { SongStatus, TranscodeState } from '../domain/song.js';

/** `song`: one upload, its tags, where its transcoding stands, and its HLS key. */
export const SongEntity = defineEntity({
  name: 'Song',
  tableName: 'song',
  properties: {
    id: p.uuid().primary(),
    uploaderUuid: p.uuid(),
    status: p.string().$type<SongStatus>(),
    transcode: p.string().$type<TranscodeState>(),
    unverified: p.boolean(),
    trackName: p.string().nullable(),
    artistName: p.string().nullable(),
    genre: p.string().nullable(),
    isrc: p.string().nullable(),
    durationMs: p.integer(),
    fileName: p.string(),
    contentType: p.string(),
    container: p.string(),
    sizeBytes: p.bigint('number'),
    hlsKey: p.blob(),
    hlsIv: p.blob(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    verifiedAt: p.datetime().nullable(),
  },
});

/** `transcode_job`: the work queue. Workers claim rows with FOR UPDATE SKIP LOCKED and hold a lease while ffmpeg runs. */
export const TranscodeJobEntity = defineEntity({
  name: 'TranscodeJob',
  tableName: 'transcode_job',
  properties: {
    songId: p.uuid().primary(),
    state: p.string().$type<'queued' | 'running' | 'done' | 'failed'>(),
    attempts: p.integer(),
    runAfter: p.datetime(),
    lockedBy: p.string().nullable(),
    lockedUntil: p.datetime().nullable(),
    lastError: p.text().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
