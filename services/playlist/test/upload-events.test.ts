import { randomUUID } from 'node:crypto';
import { UploadSongVerified, UploadSongWithdrawn } from '@spinroom/contracts/events/v1/upload_events';
import { createLogger, dropDatabase, KafkaClient, newEventMetadata, type EventProducer } from '@spinroom/platform';
import { eventually, testInfra, uniqueDatabaseUrl } from '@spinroom/platform/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlaylistService, type RunningPlaylistService } from '../src/app.js';

describe('the catalogue follows upload-events', () => {
  const databaseUrl = uniqueDatabaseUrl('playlist_uploads');
  let service: RunningPlaylistService;
  let producer: EventProducer;
  let db: pg.Client;

  beforeAll(async () => {
    service = await startPlaylistService({
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: testInfra().kafkaBrokers,
      REDIS_URL: testInfra().redisUrl,
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: 0,
      USER_ADDR: '127.0.0.1:1', // no caller in this test: only the consumer works
      JWT_ISSUER: 'spinroom',
      KAFKA_CONSUMER_GROUP: `playlist-${randomUUID()}`,
      CRATE_IMPORT_POLL_MS: 100,
      CRATE_IMPORT_RETRY_DELAY_MS: 100,
      CRATE_IMPORT_LEASE_SECONDS: 30,
      LOG_LEVEL: 'silent',
    });
    producer = await new KafkaClient({
      brokers: testInfra().kafkaBrokers,
      clientId: 'test',
      logger: createLogger('test', { level: 'silent' }),
    }).producer();
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await db.end();
    await producer.disconnect();
    await service.stop();
    await dropDatabase(databaseUrl);
  });

  const publish = (type: string, key: string, value: Uint8Array, eventId: string) =>
    producer.send([{ topic: 'upload-events', key, value: Buffer.from(value), headers: { 'event-id': eventId, 'event-type': type } }]);
  const songRows = async (uploadId: string) =>
    (
      await db.query(
        `select track_name, artist_name, duration, status, stream_urls from song where music_providers->>'uploadService' = $1`,
        [uploadId],
      )
    ).rows;

  it('adds a verified upload once, follows tag edits and withdrawals', async () => {
    const uploadId = randomUUID();
    const verified = (trackName: string) => {
      const metadata = newEventMetadata('upload.song-verified');
      const value = UploadSongVerified.encode({
        metadata,
        songId: uploadId,
        trackName,
        artistName: 'Synth Band',
        durationSeconds: 12,
        durationMs: 12_000,
        genre: 'test',
        uploaderUuid: randomUUID(),
        hlsPlaylistPath: `/api/upload-service/songs/${uploadId}/hls-playlist`,
      }).finish();
      return { metadata, value };
    };
    const first = verified('Sine Song');
    await publish('upload.song-verified', uploadId, first.value, first.metadata.eventId);
    await publish('upload.song-verified', uploadId, first.value, first.metadata.eventId); // redelivered
    const [row] = await eventually(async () => ((await songRows(uploadId)).length > 0 ? songRows(uploadId) : undefined), 30_000);
    expect(row).toMatchObject({
      track_name: 'Sine Song',
      artist_name: 'Synth Band',
      duration: 12,
      status: 'VERIFIED',
      stream_urls: { uploadService: `/api/upload-service/songs/${uploadId}/hls-playlist` },
    });

    const edited = verified('Sine Song (Edit)');
    await publish('upload.song-verified', uploadId, edited.value, edited.metadata.eventId);
    await eventually(async () => ((await songRows(uploadId))[0]?.track_name === 'Sine Song (Edit)' ? true : undefined), 30_000);
    expect(await songRows(uploadId)).toHaveLength(1);

    const withdrawn = newEventMetadata('upload.song-withdrawn');
    await publish(
      'upload.song-withdrawn',
      uploadId,
      UploadSongWithdrawn.encode({ metadata: withdrawn, songId: uploadId, uploaderUuid: randomUUID(), reason: 'deleted' }).finish(),
      withdrawn.eventId,
    );
    const [gone] = await eventually(async () => {
      const rows = await songRows(uploadId);
      return rows[0]?.status === 'UNVERIFIED' ? rows : undefined;
    }, 30_000);
    expect(gone.stream_urls).toEqual({});
  });
});
