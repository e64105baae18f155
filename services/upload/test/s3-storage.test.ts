import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { SongStatus, UploadServiceClient } from '@spinroom/contracts/upload/v1/upload_service';
import { ConfigError, createGrpcClient, dropDatabase, loadConfig, type PromiseClient } from '@spinroom/platform';
import { eventually } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUploadService, type RunningUploadService } from '../src/app.js';
import { objectStoreSettings, uploadServiceConfig, type UploadServiceConfig } from '../src/config.js';
import { fakeUserService, filesUnder, makeAudio, testUploadConfig } from './support.js';
import { startS3StandIn, type S3StandIn } from './stand-ins/s3.js';

const ACCESS_KEY_ID = 'AKIASPINROOME2E00001';
const SECRET_ACCESS_KEY = 'e2e-stand-in-secret/abcdefghijklmnopqrstuvwx';
const BUCKET = 'spinroom-uploads';

/** The environment a deployment would set, minus the S3 variables under test. */
const BASE_ENV = {
  DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
  KAFKA_BROKERS: '127.0.0.1:9092',
  REDIS_URL: 'redis://127.0.0.1:6379',
  USER_ADDR: '127.0.0.1:50051',
  UPLOAD_STORAGE_DIR: '/tmp/spinroom-config-test',
  HLS_KEY_SECRET: 'x'.repeat(32),
  TRANSCODER_CALLBACK_SECRET: 'y'.repeat(32),
};
const settingsFor = (env: Record<string, string>) => objectStoreSettings(loadConfig(uploadServiceConfig, { ...BASE_ENV, ...env }));

describe('object store configuration', () => {
  it('uses the local folder when no UPLOAD_S3_* is set', () => {
    expect(settingsFor({})).toEqual({ kind: 'local', root: '/tmp/spinroom-config-test/objects' });
  });

  it('uses S3 when a bucket is set: path-style by default with an endpoint, a normalised key prefix', () => {
    expect(
      settingsFor({
        UPLOAD_S3_BUCKET: 'songs',
        UPLOAD_S3_ENDPOINT: 'http://127.0.0.1:9000',
        UPLOAD_S3_ACCESS_KEY_ID: 'minio',
        UPLOAD_S3_SECRET_ACCESS_KEY: 'minio-secret',
        UPLOAD_S3_KEY_PREFIX: 'spinroom/prod',
      }),
    ).toEqual({
      kind: 's3',
      bucket: 'songs',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'minio', secretAccessKey: 'minio-secret' },
      keyPrefix: 'spinroom/prod/',
    });
    // AWS itself: virtual-hosted style, credentials from the SDK's default chain.
    expect(settingsFor({ UPLOAD_S3_BUCKET: 'songs', UPLOAD_S3_REGION: 'eu-west-1' })).toEqual({
      kind: 's3',
      bucket: 'songs',
      region: 'eu-west-1',
      forcePathStyle: false,
      keyPrefix: '',
    });
    expect(
      settingsFor({ UPLOAD_S3_BUCKET: 'songs', UPLOAD_S3_ENDPOINT: 'https://r2.example.com', UPLOAD_S3_FORCE_PATH_STYLE: 'false' }),
    ).toMatchObject({
      forcePathStyle: false,
    });
  });

  it('names the missing variable when credentials or the bucket are half-set', () => {
    expect(() => settingsFor({ UPLOAD_S3_BUCKET: 'songs', UPLOAD_S3_ACCESS_KEY_ID: 'minio' })).toThrow(
      new ConfigError(['UPLOAD_S3_SECRET_ACCESS_KEY: is required when UPLOAD_S3_ACCESS_KEY_ID is set']),
    );
    expect(() => settingsFor({ UPLOAD_S3_BUCKET: 'songs', UPLOAD_S3_SECRET_ACCESS_KEY: 'minio-secret' })).toThrow(
      'UPLOAD_S3_ACCESS_KEY_ID: is required when UPLOAD_S3_SECRET_ACCESS_KEY is set',
    );
    expect(() =>
      settingsFor({ UPLOAD_S3_ENDPOINT: 'http://127.0.0.1:9000', UPLOAD_S3_ACCESS_KEY_ID: 'minio', UPLOAD_S3_SECRET_ACCESS_KEY: 's' }),
    ).toThrow('UPLOAD_S3_BUCKET: is required when UPLOAD_S3_ENDPOINT, UPLOAD_S3_ACCESS_KEY_ID, UPLOAD_S3_SECRET_ACCESS_KEY are set');
  });

  it('refuses wrong values, naming the variable', () => {
    expect(() => settingsFor({ UPLOAD_S3_BUCKET: 'Not_A_Bucket' })).toThrow(/UPLOAD_S3_BUCKET: must be an S3 bucket name/);
    expect(() => settingsFor({ UPLOAD_S3_BUCKET: 'songs', UPLOAD_S3_ENDPOINT: 'ftp://x' })).toThrow(
      /UPLOAD_S3_ENDPOINT: must be a http or https URL/,
    );
    expect(() => settingsFor({ UPLOAD_S3_BUCKET: 'songs', UPLOAD_S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(
      /UPLOAD_S3_FORCE_PATH_STYLE: must be true or false/,
    );
    expect(() => settingsFor({ UPLOAD_S3_BUCKET: 'songs', UPLOAD_S3_KEY_PREFIX: '../up' })).toThrow(
      /UPLOAD_S3_KEY_PREFIX: must be folder names/,
    );
  });

  it('stops the service before it opens anything, and the process with exit code 78', async () => {
    const config = { ...testUploadConfig('127.0.0.1:1', { UPLOAD_S3_BUCKET: 'songs', UPLOAD_S3_ACCESS_KEY_ID: 'minio' }) };
    rmSync(config.UPLOAD_STORAGE_DIR, { recursive: true, force: true });
    await expect(startUploadService(config)).rejects.toThrow(
      'UPLOAD_S3_SECRET_ACCESS_KEY: is required when UPLOAD_S3_ACCESS_KEY_ID is set',
    );

    const root = resolve(import.meta.dirname, '../../..');
    const { NODE_OPTIONS: _, ...inherited } = process.env;
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'services/upload/src/main.ts'], {
      cwd: root,
      env: { ...inherited, ...BASE_ENV, UPLOAD_S3_BUCKET: 'songs', UPLOAD_S3_SECRET_ACCESS_KEY: 'minio-secret' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(child.status).toBe(78);
    expect(child.stderr).toContain('UPLOAD_S3_ACCESS_KEY_ID: is required when UPLOAD_S3_SECRET_ACCESS_KEY is set');
  }, 40_000);
});

describe('the upload service on S3-compatible storage (stand-in)', () => {
  let users: Awaited<ReturnType<typeof fakeUserService>>;
  let s3: S3StandIn;
  let config: UploadServiceConfig;
  let running: RunningUploadService;
  let client: PromiseClient<UploadServiceClient>;

  beforeAll(async () => {
    users = await fakeUserService();
    // Two keys per list page, so deleting a song's HLS output pages.
    s3 = await startS3StandIn({
      accessKeyId: ACCESS_KEY_ID,
      secretAccessKey: SECRET_ACCESS_KEY,
      region: 'eu-central-1',
      buckets: [BUCKET],
      maxKeysCap: 2,
    });
    config = testUploadConfig(users.address, {
      UPLOAD_S3_BUCKET: BUCKET,
      UPLOAD_S3_ENDPOINT: s3.endpoint,
      UPLOAD_S3_REGION: 'eu-central-1',
      UPLOAD_S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      UPLOAD_S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
      UPLOAD_S3_KEY_PREFIX: 'spinroom/',
    });
    running = await startUploadService(config);
    client = createGrpcClient(UploadServiceClient, `127.0.0.1:${running.port}`);
  });
  afterAll(async () => {
    client?.close();
    await running?.stop();
    await dropDatabase(config.DATABASE_URL);
    rmSync(config.UPLOAD_STORAGE_DIR, { recursive: true, force: true });
    await s3?.stop();
    await users?.stop();
  });

  it('uploads a tone, transcodes it into the bucket, serves its playlist and segments from there, and deletes them', async () => {
    const { token } = await users.token();
    const bytes = makeAudio({ seconds: 13, title: 'Cloud', artist: 'Bucket' });
    const call = client.uploadSong({ token });
    await call.write({ part: { $case: 'file', value: { fileName: 'tone.mp3', contentType: 'audio/mpeg' } } });
    for (let i = 0; i < bytes.length; i += 32 * 1024)
      await call.write({ part: { $case: 'chunk', value: bytes.subarray(i, i + 32 * 1024) } });
    await call.write({ part: { $case: 'end', value: { sizeBytes: bytes.length } } });
    const { song } = await call.end();
    const songId = song!.songId;
    expect(s3.buckets.get(BUCKET)!.get(`spinroom/originals/${songId}`)!.body.equals(bytes)).toBe(true);

    await eventually(
      async () => ((await client.getSong({ songId }, { token })).song!.status === SongStatus.SONG_STATUS_VERIFIED ? true : undefined),
      30_000,
    );

    const objects = s3.buckets.get(BUCKET)!;
    const keys = s3.keys(BUCKET);
    const segments = keys.filter((key) => key.startsWith(`spinroom/hls/${songId}/segment-`));
    expect(segments.length).toBeGreaterThanOrEqual(3); // 13 s in ~6 s segments
    expect(keys).toEqual([`spinroom/hls/${songId}/index.m3u8`, ...segments, `spinroom/originals/${songId}`]);
    expect(objects.get(`spinroom/hls/${songId}/index.m3u8`)!.contentType).toBe('application/vnd.apple.mpegurl');
    for (const key of segments) expect(objects.get(key)!.contentType).toBe('video/mp2t');
    // Nothing stays on the local disk: no objects folder, and the work folder goes once the worker is done.
    await eventually(async () => (filesUnder(config.UPLOAD_STORAGE_DIR).length === 0 ? true : undefined), 5_000);

    const { playlist } = await client.getHlsPlaylist({ songId }, { token });
    expect(playlist).toContain('#EXT-X-KEY:METHOD=AES-128');
    expect(playlist).toContain('#EXT-X-ENDLIST');
    const named = [...playlist.matchAll(/\/api\/upload-service\/songs\/[^/]+\/hls\/(segment-\d{5}\.ts)/g)].map((m) => m[1]!);
    expect(named.map((name) => `spinroom/hls/${songId}/${name}`)).toEqual(segments);
    for (const name of named) {
      const { data, contentType } = await client.getHlsSegment({ songId, segment: name }, {});
      expect(contentType).toBe('video/mp2t');
      expect(Buffer.from(data).equals(objects.get(`spinroom/hls/${songId}/${name}`)!.body)).toBe(true);
    }

    const mark = s3.requests.length;
    await client.deleteSong({ songId }, { token });
    expect(s3.keys(BUCKET)).toEqual([]);
    const lists = s3.requests.slice(mark).filter((r) => r.query['list-type'] === '2');
    expect(lists.length).toBeGreaterThan(1); // paged at two keys a page
    // Every request the service made was signed for the configured key and region.
    expect(s3.requests.every((r) => r.status < 300 || (r.status === 404 && r.method === 'HEAD'))).toBe(true);
  }, 60_000);
});
