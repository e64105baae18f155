import { LockMode, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import { addToOutbox, type OutboxEntry } from '@spinroom/platform';
import type { Announcement, PageRequest, Song } from '../domain/song.js';
import type { JobChange, SongChange, SongStore } from '../domain/songs.js';
import { SongEntity, TranscodeJobEntity } from './entities.js';

type SongRow = InstanceType<typeof SongEntity.class> | (Song & object);

function toSong(row: SongRow): Song {
  const r = row as Song;
  return {
    id: r.id,
    uploaderUuid: r.uploaderUuid,
    status: r.status,
    transcode: r.transcode,
    unverified: r.unverified,
    trackName: r.trackName ?? null,
    artistName: r.artistName ?? null,
    genre: r.genre ?? null,
    isrc: r.isrc ?? null,
    durationMs: r.durationMs,
    fileName: r.fileName,
    contentType: r.contentType,
    container: r.container,
    sizeBytes: Number(r.sizeBytes),
    hlsKey: r.hlsKey,
    hlsIv: r.hlsIv,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    verifiedAt: r.verifiedAt ?? null,
  };
}

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const NEWEST_FIRST = { createdAt: 'desc', id: 'asc' } as const;

/** The upload service's PostgreSQL store: songs, their transcoding jobs, and the outbox. */
export class PgSongStore implements SongStore {
  constructor(
    private readonly orm: MikroORM,
    private readonly announce: (announcement: Announcement) => OutboxEntry,
    /** Called after a commit that staged events, so the relay sends them now. */
    private readonly onEventsCommitted: () => void = () => undefined,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async find(songId: string): Promise<Song | null> {
    const row = await this.em().findOne(SongEntity, { id: songId });
    return row ? toSong(row) : null;
  }

  async listByUploader(uploaderUuid: string, verified: boolean | undefined, page: PageRequest) {
    const status = verified === undefined ? {} : verified ? { status: 'VERIFIED' as const } : { status: { $ne: 'VERIFIED' as const } };
    const [rows, total] = await this.em().findAndCount(SongEntity, { uploaderUuid, ...status }, { orderBy: NEWEST_FIRST, ...page });
    return { songs: rows.map(toSong), total };
  }

  async listVerified(page: PageRequest) {
    const [rows, total] = await this.em().findAndCount(SongEntity, { status: 'VERIFIED' }, { orderBy: NEWEST_FIRST, ...page });
    return { songs: rows.map(toSong), total };
  }

  async search(term: string, callerUuid: string, page: PageRequest) {
    const pattern = likePattern(term);
    const [rows, total] = await this.em().findAndCount(
      SongEntity,
      {
        $and: [
          { $or: [{ uploaderUuid: callerUuid }, { status: 'VERIFIED' }] },
          { $or: [{ trackName: { $ilike: pattern } }, { artistName: { $ilike: pattern } }] },
        ],
      },
      { orderBy: NEWEST_FIRST, ...page },
    );
    return { songs: rows.map(toSong), total };
  }

  async countPendingJobs(): Promise<number> {
    const [row] = await this.em().execute<{ n: number }[]>(
      `select count(*)::int as n from "transcode_job" where "state" in ('queued', 'running')`,
    );
    return row?.n ?? 0;
  }

  async create(song: Song): Promise<void> {
    await this.em().transactional(async (em) => {
      em.create(SongEntity, { ...song });
      await em.flush(); // the job row references the song row
      em.create(TranscodeJobEntity, {
        songId: song.id,
        state: 'queued',
        attempts: 0,
        runAfter: song.createdAt,
        lockedBy: null,
        lockedUntil: null,
        lastError: null,
        createdAt: song.createdAt,
        updatedAt: song.createdAt,
      });
    });
  }

  async change(songId: string, decide: (song: Song) => SongChange | null, worker?: string) {
    let announced = false;
    const result = await this.em().transactional(async (em) => {
      const row = await em.findOne(SongEntity, { id: songId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row) return null;
      const current = toSong(row);
      if (worker) {
        const leased = await em.findOne(TranscodeJobEntity, { songId, state: 'running', lockedBy: worker });
        if (!leased) return { song: current, changed: false };
      }
      const decision = decide(current);
      if (!decision) return { song: current, changed: false };
      const { id: _id, createdAt: _createdAt, ...changes } = decision.song;
      em.assign(row, changes);
      if (decision.job) await this.applyJobChange(em, songId, decision.job);
      for (const announcement of decision.announcements) addToOutbox(em, this.announce(announcement));
      announced = decision.announcements.length > 0;
      return { song: decision.song, changed: true };
    });
    if (announced) this.onEventsCommitted();
    return result;
  }

  private async applyJobChange(em: EntityManager, songId: string, change: JobChange): Promise<void> {
    const job = await em.findOne(TranscodeJobEntity, { songId });
    if (!job) return;
    em.assign(job, {
      state: change.state,
      lockedBy: null,
      lockedUntil: null,
      lastError: change.state === 'done' ? null : change.error,
      ...(change.state === 'queued' ? { runAfter: change.runAfter } : {}),
      updatedAt: new Date(),
    });
  }

  async remove(songId: string, announcements: (song: Song) => Announcement[]): Promise<Song | null> {
    let announced = false;
    const removed = await this.em().transactional(async (em) => {
      const row = await em.findOne(SongEntity, { id: songId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!row) return null;
      const song = toSong(row);
      const events = announcements(song);
      for (const announcement of events) addToOutbox(em, this.announce(announcement));
      announced = events.length > 0;
      await em.nativeDelete(TranscodeJobEntity, { songId });
      await em.nativeDelete(SongEntity, { id: songId });
      return song;
    });
    if (announced) this.onEventsCommitted();
    return removed;
  }
}
