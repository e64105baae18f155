import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UploadSongVerified, UploadSongWithdrawn } from '@spinroom/contracts/events/v1/upload_events';
import { SongStatus, UploadServiceClient, type Song as SongMessage } from '@spinroom/contracts/upload/v1/upload_service';
import { createGrpcClient, createLogger, dropDatabase, headersToRecord, KafkaClient, type PromiseClient } from '@spinroom/platform';
import { eventually, testInfra } from '@spinroom/platform/testing';
import type { Consumer } from 'kafkajs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUploadService, type RunningUploadService } from '../src/app.js';
import type { UploadServiceConfig } from '../src/config.js';
import { fakeUserService, filesUnder, makeAudio, mediaProcessesUnder, testUploadConfig } from './support.js';

type Client = PromiseClient<UploadServiceClient>;

async function upload(
  client: Client,
  token: string,
  bytes: Buffer,
  options: { fileName?: string; contentType?: string; fields?: { trackName?: string; artistName?: string } } = {},
): Promise<SongMessage> {
  const call = client.uploadSong({ token });
  if (options.fields) await call.write({ part: { $case: 'fields', value: options.fields } });
  await call.write({
    part: { $case: 'file', value: { fileName: options.fileName ?? 'tone.mp3', contentType: options.contentType ?? 'audio/mpeg' } },
  });
  for (let i = 0; i < bytes.length; i += 32 * 1024) await call.write({ part: { $case: 'chunk', value: bytes.subarray(i, i + 32 * 1024) } });
  await call.write({ part: { $case: 'end', value: { sizeBytes: bytes.length } } });
  const { song } = await call.end();
  return song!;
}

/** One upload service on its own database and folder, restartable with other settings. */
function serviceUnderTest(userAddress: string, base: Partial<UploadServiceConfig> = {}) {
  const config = testUploadConfig(userAddress, base);
  let running: RunningUploadService | undefined;
  let client: Client | undefined;
  const db = new pg.Pool({ connectionString: config.DATABASE_URL, max: 2 });
  db.on('error', () => undefined); // idle connections end when the database is dropped
  return {
    config,
    async start(overrides: Partial<UploadServiceConfig> = {}) {
      running = await startUploadService({ ...config, ...overrides });
      client = createGrpcClient(UploadServiceClient, `127.0.0.1:${running.port}`);
      return client;
    },
    async stop() {
      client?.close();
      await running?.stop();
      running = undefined;
    },
    query: async <T>(sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows as T[],
    job: async (songId: string) =>
      (await db.query(`select "state", "attempts", "locked_by", "last_error" from "transcode_job" where "song_id" = $1`, [songId]))
        .rows[0] as { state: string; attempts: number; locked_by: string | null; last_error: string | null } | undefined,
    async dispose() {
      await this.stop();
      await db.end();
      await dropDatabase(config.DATABASE_URL);
      rmSync(config.UPLOAD_STORAGE_DIR, { recursive: true, force: true });
    },
  };
}

async function statusOf(client: Client, token: string, songId: string): Promise<SongStatus> {
  return (await client.getSong({ songId }, { token })).song!.status;
}

function untilStatus(client: Client, token: string, songId: string, status: SongStatus, timeoutMs = 30_000) {
  return eventually(async () => ((await statusOf(client, token, songId)) === status ? true : undefined), timeoutMs, 100);
}

describe('transcoding off the request path', () => {
  let users: Awaited<ReturnType<typeof fakeUserService>>;
  beforeAll(async () => {
    users = await fakeUserService();
  });
  afterAll(async () => {
    await users.stop();
  });

  it('hands a job back when the service stops mid-transcode (killing ffmpeg); the next start completes it', async () => {
    const service = serviceUnderTest(users.address, { TRANSCODE_CONCURRENCY: 1 });
    try {
      // Read in real time: a 12 s tone takes ~12 s, so the stop lands mid-way.
      const client = await service.start({ TRANSCODE_READRATE: 1 });
      const { token } = await users.token();
      const song = await upload(client, token, makeAudio({ seconds: 12, title: 'Restart', artist: 'Me' }));
      expect(song.status).toBe(SongStatus.SONG_STATUS_VALID_FILE_TYPE);
      await eventually(async () => ((await service.job(song.songId))?.state === 'running' ? true : undefined));
      await eventually(async () => (mediaProcessesUnder(service.config.UPLOAD_STORAGE_DIR).length > 0 ? true : undefined));

      await service.stop();
      expect(mediaProcessesUnder(service.config.UPLOAD_STORAGE_DIR)).toEqual([]);
      expect(await service.job(song.songId)).toMatchObject({ state: 'queued', attempts: 0, locked_by: null });
      expect(filesUnder(join(service.config.UPLOAD_STORAGE_DIR, 'work'))).toEqual([]);
      expect(filesUnder(join(service.config.UPLOAD_STORAGE_DIR, 'objects'))).toEqual([`originals/${song.songId}`]);

      const again = await service.start();
      await untilStatus(again, token, song.songId, SongStatus.SONG_STATUS_VERIFIED);
      expect(await service.job(song.songId)).toMatchObject({ state: 'done', attempts: 1, locked_by: null });
      const { playlist } = await again.getHlsPlaylist({ songId: song.songId }, { token });
      expect(playlist).toContain('#EXT-X-ENDLIST');
    } finally {
      await service.dispose();
    }
  }, 60_000);

  it('survives a crash (SIGKILL) mid-transcode: ffmpeg dies with the process and the job runs again once its lease ends', async () => {
    const service = serviceUnderTest(users.address, { TRANSCODE_LEASE_SECONDS: 2 });
    try {
      // Queue a job with no worker running.
      const client = await service.start({ TRANSCODE_CONCURRENCY: 0 });
      const { token } = await users.token();
      const song = await upload(client, token, makeAudio({ seconds: 12, title: 'Crash', artist: 'Me' }));
      await service.stop();

      // A real service process takes the job, reading in real time, and is killed mid-way.
      const env: Record<string, string> = { ...process.env } as Record<string, string>;
      for (const [key, value] of Object.entries({ ...service.config, TRANSCODE_CONCURRENCY: 1, TRANSCODE_READRATE: 1 })) {
        if (value === undefined) continue;
        // Lists and limits as their variables spell them (`a,b`; `<points>/<seconds>[/<block seconds>]`).
        if (Array.isArray(value)) env[key] = value.join(',');
        else if (typeof value === 'object')
          env[key] = `${value.points}/${value.durationSeconds}${value.blockSeconds ? `/${value.blockSeconds}` : ''}`;
        else env[key] = String(value);
      }
      const root = resolve(import.meta.dirname, '../../..');
      const child = spawn(process.execPath, ['--import', 'tsx', 'services/upload/src/main.ts'], { cwd: root, env, stdio: 'ignore' });
      try {
        await eventually(async () => ((await service.job(song.songId))?.state === 'running' ? true : undefined), 30_000);
        await eventually(async () => (mediaProcessesUnder(service.config.UPLOAD_STORAGE_DIR).length > 0 ? true : undefined));
      } finally {
        child.kill('SIGKILL');
      }
      await new Promise((r) => child.once('exit', r));
      await eventually(async () => (mediaProcessesUnder(service.config.UPLOAD_STORAGE_DIR).length === 0 ? true : undefined), 5_000);
      expect(await service.job(song.songId)).toMatchObject({ state: 'running', attempts: 1 });

      const again = await service.start({ TRANSCODE_CONCURRENCY: 1 });
      await untilStatus(again, token, song.songId, SongStatus.SONG_STATUS_VERIFIED);
      expect(await service.job(song.songId)).toMatchObject({ state: 'done', attempts: 2 });
    } finally {
      await service.dispose();
    }
  }, 90_000);

  it('retries a failed attempt later (VERIFICATION_POSTPONED), then gives up with VERIFICATION_ERROR', async () => {
    const service = serviceUnderTest(users.address, { TRANSCODE_MAX_ATTEMPTS: 2, TRANSCODE_RETRY_DELAY_MS: 1_500 });
    try {
      const client = await service.start({ TRANSCODE_CONCURRENCY: 0 });
      const { token } = await users.token();
      const song = await upload(client, token, makeAudio({ seconds: 3, title: 'Lost', artist: 'Me' }));
      await service.stop();
      // The stored original disappears (a storage fault): every attempt fails.
      rmSync(join(service.config.UPLOAD_STORAGE_DIR, 'objects', 'originals', song.songId));

      const again = await service.start({ TRANSCODE_CONCURRENCY: 1 });
      await untilStatus(again, token, song.songId, SongStatus.SONG_STATUS_VERIFICATION_POSTPONED, 10_000);
      expect(await service.job(song.songId)).toMatchObject({ state: 'queued', attempts: 1, last_error: expect.stringContaining('ENOENT') });
      await untilStatus(again, token, song.songId, SongStatus.SONG_STATUS_VERIFICATION_ERROR, 10_000);
      expect(await service.job(song.songId)).toMatchObject({ state: 'failed', attempts: 2 });
    } finally {
      await service.dispose();
    }
  });

  it('postpones verification while the queue is saturated, and still verifies the song', async () => {
    const service = serviceUnderTest(users.address, { TRANSCODE_QUEUE_LIMIT: 0 });
    try {
      const client = await service.start();
      const { token } = await users.token();
      const song = await upload(client, token, makeAudio({ seconds: 3, title: 'Busy', artist: 'Me' }));
      expect(song.status).toBe(SongStatus.SONG_STATUS_VERIFICATION_POSTPONED);
      await untilStatus(client, token, song.songId, SongStatus.SONG_STATUS_VERIFIED);
    } finally {
      await service.dispose();
    }
  });
});

describe('upload-events on Kafka', () => {
  const seen: Array<{ key: string; headers: Record<string, string>; value: Buffer }> = [];
  let consumer: Consumer;
  let users: Awaited<ReturnType<typeof fakeUserService>>;
  let service: ReturnType<typeof serviceUnderTest>;
  let client: Client;

  beforeAll(async () => {
    users = await fakeUserService();
    service = serviceUnderTest(users.address);
    client = await service.start(); // creates the topic
    const kafka = new KafkaClient({
      brokers: testInfra().kafkaBrokers,
      clientId: 'upload-test',
      logger: createLogger('test', { level: 'silent' }),
    });
    consumer = kafka.consumer(`upload-test-${randomUUID()}`);
    await consumer.connect();
    await consumer.subscribe({ topic: 'upload-events', fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        seen.push({ key: message.key!.toString(), headers: headersToRecord(message.headers), value: message.value! });
      },
    });
  });
  afterAll(async () => {
    await consumer.disconnect();
    await service.dispose();
    await users.stop();
  });

  const eventsOf = (songId: string) => seen.filter((m) => m.key === songId);

  it('announces a song once it is transcoded and named, with what the catalogue needs, and its withdrawal on delete', async () => {
    const { token, userUuid } = await users.token();
    // No names in the form or the tags: MISSING_METADATA until they are set.
    const song = await upload(client, token, makeAudio({ seconds: 7 }), { fileName: 'untitled.mp3' });
    expect(song.status).toBe(SongStatus.SONG_STATUS_MISSING_METADATA);
    await eventually(async () => ((await service.job(song.songId))?.state === 'done' ? true : undefined));
    expect(await statusOf(client, token, song.songId)).toBe(SongStatus.SONG_STATUS_MISSING_METADATA);
    await new Promise((r) => setTimeout(r, 500));
    expect(eventsOf(song.songId)).toEqual([]);

    const { song: named } = await client.updateSong(
      { songId: song.songId, trackName: 'Named', artistName: 'Later', genre: 'Ambient', isrc: 'USRC17607839' },
      { token },
    );
    expect(named!.status).toBe(SongStatus.SONG_STATUS_VERIFIED);
    const [verified] = await eventually(async () => (eventsOf(song.songId).length >= 1 ? eventsOf(song.songId) : undefined), 20_000);
    expect(verified!.headers).toMatchObject({ 'event-type': 'upload.song-verified', 'event-id': expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(UploadSongVerified.decode(verified!.value)).toEqual({
      metadata: { eventId: verified!.headers['event-id'], eventType: 'upload.song-verified', occurredAt: expect.any(Date) },
      songId: song.songId,
      trackName: 'Named',
      artistName: 'Later',
      durationSeconds: 7,
      durationMs: expect.any(Number),
      genre: 'Ambient',
      uploaderUuid: userUuid,
      isrc: 'USRC17607839',
      hlsPlaylistPath: `/api/upload-service/songs/${song.songId}/hls-playlist`,
    });

    await client.deleteSong({ songId: song.songId }, { token });
    const events = await eventually(async () => (eventsOf(song.songId).length >= 2 ? eventsOf(song.songId) : undefined), 20_000);
    expect(events[1]!.headers['event-type']).toBe('upload.song-withdrawn');
    expect(UploadSongWithdrawn.decode(events[1]!.value)).toMatchObject({ songId: song.songId, uploaderUuid: userUuid, reason: 'deleted' });
    expect(filesUnder(join(service.config.UPLOAD_STORAGE_DIR, 'objects'))).toEqual([]);
  });
});

describe('the upload stream', () => {
  let users: Awaited<ReturnType<typeof fakeUserService>>;
  let service: ReturnType<typeof serviceUnderTest>;
  let client: Client;
  beforeAll(async () => {
    users = await fakeUserService();
    service = serviceUnderTest(users.address, { UPLOAD_MAX_BYTES: 100_000 });
    client = await service.start();
  });
  afterAll(async () => {
    await service.dispose();
    await users.stop();
  });

  const nothingLeft = async () => {
    expect(await service.query(`select "id" from "song"`)).toEqual([]);
    expect(filesUnder(service.config.UPLOAD_STORAGE_DIR)).toEqual([]);
    expect(mediaProcessesUnder(service.config.UPLOAD_STORAGE_DIR)).toEqual([]);
  };

  it('refuses more bytes than the limit as they arrive (413) and keeps nothing', async () => {
    const { token } = await users.token();
    await expect(upload(client, token, makeAudio({ seconds: 10, title: 'Big', artist: 'Me' }))).rejects.toMatchObject({
      status: 413,
      messages: 'The file is larger than the 98 KB upload limit',
    });
    await nothingLeft();
  });

  it('keeps nothing when the client cancels mid-stream', async () => {
    const { token } = await users.token();
    const call = client.uploadSong({ token });
    await call.write({ part: { $case: 'file', value: { fileName: 'a.mp3', contentType: 'audio/mpeg' } } });
    await call.write({ part: { $case: 'chunk', value: makeAudio({ seconds: 2 }).subarray(0, 10_000) } });
    await eventually(async () => (filesUnder(service.config.UPLOAD_STORAGE_DIR).length > 0 ? true : undefined));
    call.cancel();
    await expect(call.response).rejects.toBeDefined();
    await eventually(async () => (filesUnder(service.config.UPLOAD_STORAGE_DIR).length === 0 ? true : undefined));
    await nothingLeft();
  });

  it('discards a stream that ends without its end message (how a cancel can look), or whose size does not add up', async () => {
    const { token } = await users.token();
    const bytes = makeAudio({ seconds: 2, title: 'Cut', artist: 'Off' });
    const cut = client.uploadSong({ token });
    await cut.write({ part: { $case: 'file', value: { fileName: 'a.mp3', contentType: 'audio/mpeg' } } });
    await cut.write({ part: { $case: 'chunk', value: bytes } });
    await expect(cut.end()).rejects.toMatchObject({ status: 400, messages: 'The upload was cut off before its end' });
    const wrong = client.uploadSong({ token });
    await wrong.write({ part: { $case: 'file', value: { fileName: 'a.mp3', contentType: 'audio/mpeg' } } });
    await wrong.write({ part: { $case: 'chunk', value: bytes } });
    await wrong.write({ part: { $case: 'end', value: { sizeBytes: bytes.length + 1 } } }).catch(() => undefined);
    await expect(wrong.end()).rejects.toMatchObject({ status: 400, messages: 'The upload was cut off before its end' });
    await nothingLeft();
  });

  it('refuses guests and an unsupported declared type before any byte', async () => {
    const guest = await users.token('guest');
    await expect(upload(client, guest.token, Buffer.from('x'))).rejects.toMatchObject({
      status: 403,
      messages: 'Guests cannot upload songs',
    });
    const { token } = await users.token();
    const call = client.uploadSong({ token });
    await expect(
      call.write({ part: { $case: 'file', value: { fileName: 'a.txt', contentType: 'text/plain' } } }).then(() => call.response),
    ).rejects.toMatchObject({
      status: 415,
    });
    await nothingLeft();
  });
});
