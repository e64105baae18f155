import { randomBytes, randomUUID } from 'node:crypto';
import { badRequest, conflict, forbidden, isUuid, notFound, type Caller, type Limit, type LimitDeclaration } from '@spinroom/platform';
import type { ObjectStore } from '../storage/object-store.js';
import { checkProbe, familyOf, FILE_EMPTY, FILE_REQUIRED, tooLarge, type AudioFamily, type ProbeResult } from './audio-files.js';
import { HLS, objectKeys, rewritePlaylist, type KeyTokenFields, type KeyTokens } from './hls.js';
import {
  changeSong,
  checkCanDelete,
  checkCanEditTags,
  checkCanModerate,
  checkCanSee,
  checkCanUpload,
  checkPage,
  checkTagEdit,
  deriveStatus,
  mergeTags,
  SONG_NOT_FOUND,
  SONG_NOT_VERIFIED,
  tagsFromFile,
  type Announcement,
  type PageRequest,
  type Song,
  type SongTags,
} from './song.js';
import { afterFailure, readNotification, type RetryPolicy } from './transcoding.js';

/** One message of an upload stream, as the rpc layer hands it over. */
export type UploadPart =
  | { kind: 'fields'; fields: Partial<Record<keyof SongTags, string>> }
  | { kind: 'file'; fileName: string; contentType: string }
  | { kind: 'chunk'; data: Buffer }
  /** The sender's last message: the file's size. Without it the upload was cut off. */
  | { kind: 'end'; sizeBytes: number };

/** A local file an upload is written into while it is checked. */
export interface IncomingFile {
  readonly path: string;
  write(chunk: Buffer): Promise<void>;
  finish(): Promise<void>;
  /** Removes the file if it is still there (idempotent). */
  discard(): Promise<void>;
}

export interface AudioProbe {
  probe(path: string, signal?: AbortSignal): Promise<ProbeResult | null>;
}

/** A change to a song's transcoding job, written with the song's change. */
export type JobChange = { state: 'done' } | { state: 'queued'; runAfter: Date; error: string } | { state: 'failed'; error: string };

export interface SongChange {
  song: Song;
  announcements: Announcement[];
  job?: JobChange;
}

/** Where songs and their transcoding jobs are kept. The PostgreSQL implementation lives in db/. */
export interface SongStore {
  find(songId: string): Promise<Song | null>;
  listByUploader(uploaderUuid: string, verified: boolean | undefined, page: PageRequest): Promise<{ songs: Song[]; total: number }>;
  listVerified(page: PageRequest): Promise<{ songs: Song[]; total: number }>;
  /** The caller's own songs and everyone's verified ones whose names contain the term. */
  search(term: string, callerUuid: string, page: PageRequest): Promise<{ songs: Song[]; total: number }>;
  /** Jobs queued or running: how busy transcoding is. */
  countPendingJobs(): Promise<number>;
  /** Inserts the song and its queued transcoding job in one transaction. */
  create(song: Song): Promise<void>;
  /**
   * Locks the song, lets `decide` change it, and writes the change, its job
   * change and its announcements in one transaction. `decide` returning null
   * changes nothing. With `worker`, the job must still be leased by that
   * worker, else nothing changes (its lease was lost). Null when the song is gone.
   */
  change(songId: string, decide: (song: Song) => SongChange | null, worker?: string): Promise<{ song: Song; changed: boolean } | null>;
  /** Deletes the song (and its job) with its announcements in one transaction. */
  remove(songId: string, announcements: (song: Song) => Announcement[]): Promise<Song | null>;
}

export interface SongsOptions {
  maxBytes: number;
  /** UPLOADS_PER_USER, with its configured allowance. */
  uploadLimit: Limit;
  /** Pending jobs past which a new upload is VERIFICATION_POSTPONED. */
  queueLimit: number;
  retry: RetryPolicy;
  transcoderSecret: string;
}

/** Uploads per user, counted as they start (each costs storage and a transcode). */
export const UPLOADS_PER_USER: LimitDeclaration = {
  key: 'upload:uploads',
  message: (until) => `Too many uploads: try again after ${until.toISOString()}`,
};

export const UPLOAD_CUT_OFF = 'The upload was cut off before its end';

/** The upload service's rules over its store, object store, probe and key tokens. */
export class Songs {
  constructor(
    private readonly store: SongStore,
    private readonly objects: ObjectStore,
    private readonly probe: AudioProbe,
    private readonly keys: KeyTokens,
    private readonly incoming: { incomingFile(label: string, extension: string): Promise<IncomingFile> },
    private readonly options: SongsOptions,
    /** Called once a new job is committed, so an idle worker starts at once. */
    private readonly onJobQueued: () => void = () => undefined,
  ) {}

  /**
   * Receives an upload, checks it, and stores it with its transcoding job.
   * Whatever goes wrong (bad input, a cancelled call, a failed write), the
   * incoming file is removed and nothing is stored.
   */
  async upload(caller: Caller, parts: AsyncIterable<UploadPart>, signal?: AbortSignal): Promise<Song> {
    checkCanUpload(caller);
    await this.options.uploadLimit.consume(caller.userUuid);
    const songId = randomUUID();
    let form: Partial<SongTags> = {};
    let file: { fileName: string; contentType: string; family: AudioFamily } | undefined;
    let incoming: IncomingFile | undefined;
    let size = 0;
    let ended = false;
    let stored = false;
    try {
      for await (const part of parts) {
        if (ended) throw badRequest('Nothing may follow the end of an upload');
        if (part.kind === 'end') {
          if (part.sizeBytes !== size) throw badRequest(UPLOAD_CUT_OFF);
          ended = true;
        } else if (part.kind === 'fields') {
          form = { ...form, ...checkTagEdit(part.fields) };
        } else if (part.kind === 'file') {
          if (file) throw badRequest('Only one file can be uploaded at a time');
          file = {
            fileName: part.fileName.slice(0, 255),
            contentType: part.contentType,
            family: familyOf(part.contentType, part.fileName),
          };
          // Named by its family's extension: ffprobe weighs it when sniffing raw formats (ADTS AAC, bare MP3).
          incoming = await this.incoming.incomingFile(songId, file.family.extensions[0]!);
        } else {
          if (!incoming) throw badRequest(FILE_REQUIRED);
          size += part.data.length;
          if (size > this.options.maxBytes) throw tooLarge(this.options.maxBytes);
          await incoming.write(part.data);
        }
      }
      if (!ended) throw badRequest(UPLOAD_CUT_OFF);
      if (!file || !incoming) throw badRequest(FILE_REQUIRED);
      await incoming.finish();
      if (size === 0) throw badRequest(FILE_EMPTY);
      const audio = checkProbe(file.family, file.contentType, await this.probe.probe(incoming.path, signal));
      const tags = mergeTags(tagsFromFile(audio.tags), form);
      const saturated = (await this.store.countPendingJobs()) >= this.options.queueLimit;
      const now = new Date();
      const song: Song = {
        id: songId,
        uploaderUuid: caller.userUuid,
        ...tags,
        status: 'PENDING_UPLOAD',
        transcode: saturated ? 'postponed' : 'queued',
        unverified: false,
        durationMs: audio.durationMs,
        fileName: file.fileName,
        contentType: file.contentType.split(';')[0]!.trim().toLowerCase() || 'application/octet-stream',
        container: audio.container,
        sizeBytes: size,
        hlsKey: randomBytes(16),
        hlsIv: randomBytes(16),
        createdAt: now,
        updatedAt: now,
        verifiedAt: null,
      };
      song.status = deriveStatus(song);
      signal?.throwIfAborted();
      await this.objects.putFile(objectKeys.original(songId), incoming.path);
      stored = true;
      await this.store.create(song);
      this.onJobQueued();
      return song;
    } catch (error) {
      if (stored) await this.objects.delete(objectKeys.original(songId));
      throw error;
    } finally {
      await incoming?.discard();
    }
  }

  async get(caller: Caller, songId: string): Promise<Song> {
    return checkCanSee(caller, isUuid(songId) ? await this.store.find(songId) : null);
  }

  listOwn(caller: Caller, verified: boolean | undefined, page: { limit?: number; offset?: number } | undefined) {
    return this.store.listByUploader(caller.userUuid, verified, checkPage(page));
  }

  listPublic(page: { limit?: number; offset?: number } | undefined) {
    return this.store.listVerified(checkPage(page));
  }

  search(caller: Caller, term: string, page: { limit?: number; offset?: number } | undefined) {
    const trimmed = term.trim();
    if (trimmed.length === 0) throw badRequest('term is required');
    if (trimmed.length > 100) throw badRequest('term must be at most 100 characters');
    return this.store.search(trimmed, caller.userUuid, checkPage(page));
  }

  /** Edits tags (owner or moderator) and, for moderators, whether the song is withdrawn. */
  async update(caller: Caller, songId: string, input: Partial<Record<keyof SongTags, string>> & { unverified?: boolean }): Promise<Song> {
    const song = isUuid(songId) ? await this.store.find(songId) : null;
    if (!song) throw notFound(SONG_NOT_FOUND);
    checkCanEditTags(caller, song);
    if (input.unverified !== undefined) checkCanModerate(caller);
    const edit = checkTagEdit(input);
    const result = await this.store.change(songId, (current) => {
      const changes = { ...edit, ...(input.unverified !== undefined ? { unverified: input.unverified } : {}) };
      return changeSong(current, changes);
    });
    if (!result) throw notFound(SONG_NOT_FOUND);
    return result.song;
  }

  async delete(caller: Caller, songId: string): Promise<void> {
    const song = isUuid(songId) ? await this.store.find(songId) : null;
    if (!song) throw notFound(SONG_NOT_FOUND);
    checkCanDelete(caller, song);
    const removed = await this.store.remove(songId, (current) =>
      current.status === 'VERIFIED' ? [{ kind: 'withdrawn', song: current, reason: 'deleted' }] : [],
    );
    if (!removed) throw notFound(SONG_NOT_FOUND);
    // The row is gone, so nothing serves these any more; a worker finishing
    // meanwhile finds no song and removes its own output.
    await this.objects.deletePrefix(objectKeys.hlsPrefix(songId));
    await this.objects.delete(objectKeys.original(songId));
  }

  /** The playlist for one caller: 403 "Song is not verified" until it is. */
  async hlsPlaylist(caller: Caller, songId: string): Promise<{ playlist: string; keyTokenExpiresAt: Date }> {
    const song = await this.verifiedSong(songId);
    const stored = await this.objects.get(objectKeys.playlist(song.id));
    if (!stored) throw new Error(`verified song ${song.id} has no playlist`);
    const { uri, expiresAt } = this.keys.keyUri(song.id, caller.userUuid);
    return { playlist: rewritePlaylist(stored.toString('utf8'), song.id, uri), keyTokenExpiresAt: expiresAt };
  }

  /** The song's AES-128 key, for a signed key link. */
  async hlsKey(fields: KeyTokenFields): Promise<Buffer> {
    this.keys.verify(fields);
    return (await this.verifiedSong(fields.songId)).hlsKey;
  }

  async hlsSegment(songId: string, segment: string): Promise<{ data: Buffer; contentType: string }> {
    if (!HLS.segmentName.test(segment)) throw notFound('Segment not found');
    const song = await this.verifiedSong(songId);
    const data = await this.objects.get(objectKeys.segment(song.id, segment));
    if (!data) throw notFound('Segment not found');
    return { data, contentType: HLS.segmentContentType };
  }

  private async verifiedSong(songId: string): Promise<Song> {
    const song = isUuid(songId) ? await this.store.find(songId) : null;
    if (!song) throw notFound(SONG_NOT_FOUND);
    if (song.status !== 'VERIFIED') throw forbidden(SONG_NOT_VERIFIED);
    return song;
  }

  /** For a worker: the song it is about to transcode (with its key), or null when deleted. */
  songForTranscoding(songId: string): Promise<Song | null> {
    return this.store.find(songId);
  }

  /** The worker's HLS output is in the object store: the song is transcoded. */
  async transcodeSucceeded(songId: string, worker: string): Promise<{ song: Song; changed: boolean } | null> {
    return this.store.change(songId, (song) => ({ ...changeSong(song, { transcode: 'ready' }), job: { state: 'done' } }), worker);
  }

  /** An attempt failed: retried later (VERIFICATION_POSTPONED) or, after the last attempt, VERIFICATION_ERROR. */
  async transcodeFailed(songId: string, worker: string, attempt: number, error: string, now = new Date()) {
    const plan = afterFailure(attempt, this.options.retry);
    return this.store.change(
      songId,
      (song) =>
        plan.retry
          ? {
              ...changeSong(song, { transcode: 'postponed' }),
              job: { state: 'queued', runAfter: new Date(now.getTime() + plan.delayMs), error },
            }
          : { ...changeSong(song, { transcode: 'failed' }), job: { state: 'failed', error } },
      worker,
    );
  }

  /**
   * An external transcoder's notice. COMPLETE needs the playlist in the
   * object store; repeating a notice, or an ERROR after success, changes nothing.
   */
  async recordTranscoderNotification(input: {
    body: Buffer;
    timestamp: string;
    signature: string;
  }): Promise<{ song: Song; changed: boolean }> {
    const notice = readNotification(this.options.transcoderSecret, input);
    const song = await this.store.find(notice.songId);
    if (!song) throw notFound(SONG_NOT_FOUND);
    if (notice.status === 'COMPLETE' && song.transcode !== 'ready' && !(await this.objects.exists(objectKeys.playlist(song.id)))) {
      throw conflict('No transcoded output was found for this song');
    }
    const result = await this.store.change(song.id, (current) => {
      if (notice.status === 'COMPLETE') {
        return current.transcode === 'ready' ? null : { ...changeSong(current, { transcode: 'ready' }), job: { state: 'done' } };
      }
      if (current.transcode === 'ready' || current.transcode === 'failed') return null;
      return {
        ...changeSong(current, { transcode: 'failed' }),
        job: { state: 'failed', error: notice.error ?? 'external transcoder failed' },
      };
    });
    if (!result) throw notFound(SONG_NOT_FOUND);
    return result;
  }
}
