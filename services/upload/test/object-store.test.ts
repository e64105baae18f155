import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalFolderStore } from '../src/storage/local-folder-store.js';
import type { ObjectStore } from '../src/storage/object-store.js';
import { S3Store, type S3StoreOptions } from '../src/storage/s3-store.js';
import { garbage } from './support.js';
import { startS3StandIn, type S3StandIn } from './stand-ins/s3.js';

const ACCESS_KEY_ID = 'AKIASPINROOMTEST0001';
const SECRET_ACCESS_KEY = 'stand-in-secret/0123456789abcdefghijklmnop';
const BUCKET = 'spinroom-contract';
/** The stand-in's ListObjectsV2 page cap: small, so every deletePrefix below pages. */
const PAGE_CAP = 7;

const work = mkdtempSync(join(tmpdir(), 'spinroom-object-store-'));
let fileCount = 0;
/** A name no earlier call gave out. */
const nextName = (prefix: string) => {
  fileCount += 1;
  return `${prefix}-${fileCount}`;
};
/** A local file with these bytes, as the service hands to putFile. */
function localFile(bytes: Buffer | string): string {
  const path = join(work, nextName('file'));
  writeFileSync(path, bytes);
  return path;
}

let s3: S3StandIn;
const s3Stores: S3Store[] = [];
function s3Store(overrides: Partial<S3StoreOptions> = {}): S3Store {
  const store = new S3Store({
    bucket: BUCKET,
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY },
    // Anything past 64 KiB is streamed from disk, so both put paths run below.
    inMemoryPutBytes: 64 * 1024,
    ...overrides,
  });
  s3Stores.push(store);
  return store;
}

beforeAll(async () => {
  s3 = await startS3StandIn({ accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY, buckets: [BUCKET], maxKeysCap: PAGE_CAP });
});
afterAll(async () => {
  for (const store of s3Stores) store.destroy();
  await s3?.stop();
  rmSync(work, { recursive: true, force: true });
});

const implementations: Array<[string, () => ObjectStore]> = [
  ['LocalFolderStore', () => new LocalFolderStore(mkdtempSync(join(work, 'local-')))],
  ['S3Store (stand-in S3)', () => s3Store({ keyPrefix: `${nextName('run')}/` })],
];

describe.each(implementations)('ObjectStore contract: %s', (_name, create) => {
  let store: ObjectStore;
  beforeAll(() => {
    store = create();
  });

  it('stores a file under a key (moving it) and gives the same bytes back', async () => {
    const bytes = garbage(10_000, 'small');
    const path = localFile(bytes);
    await store.putFile('originals/song-1', path);
    expect(existsSync(path)).toBe(false);
    expect(await store.get('originals/song-1')).toEqual(bytes);
    expect(await store.exists('originals/song-1')).toBe(true);
  });

  it('replaces what a key held', async () => {
    await store.putFile('hls/song-2/index.m3u8', localFile('#EXTM3U\nfirst\n'));
    await store.putFile('hls/song-2/index.m3u8', localFile('#EXTM3U\nsecond\n'));
    expect((await store.get('hls/song-2/index.m3u8'))?.toString()).toBe('#EXTM3U\nsecond\n');
  });

  it('keeps large files and empty files intact, and copies them to local files', async () => {
    const large = garbage(3 * 1024 * 1024 + 17, 'large');
    await store.putFile('originals/large', localFile(large));
    await store.putFile('originals/empty', localFile(Buffer.alloc(0)));
    const copy = join(work, nextName('copy'));
    await store.copyToFile('originals/large', copy);
    expect(readFileSync(copy).equals(large)).toBe(true);
    await store.copyToFile('originals/empty', copy);
    expect(readFileSync(copy)).toHaveLength(0);
    expect(await store.get('originals/empty')).toEqual(Buffer.alloc(0));
    expect(await store.exists('originals/empty')).toBe(true);
  });

  it('answers a missing key with null / false, and refuses to copy it (ENOENT)', async () => {
    expect(await store.get('originals/never')).toBeNull();
    expect(await store.exists('originals/never')).toBe(false);
    expect(await store.exists('originals')).toBe(false); // a "folder" is not an object
    const target = join(work, nextName('missing'));
    await expect(store.copyToFile('originals/never', target)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(existsSync(target)).toBe(false);
  });

  it('deletes idempotently', async () => {
    await store.putFile('originals/doomed', localFile('bytes'));
    await store.delete('originals/doomed');
    expect(await store.get('originals/doomed')).toBeNull();
    expect(await store.exists('originals/doomed')).toBe(false);
    await store.delete('originals/doomed');
    await store.delete('originals/never-was');
  });

  it('deletes every object under a folder prefix, over many list pages, and nothing next to it', async () => {
    const count = PAGE_CAP * 3 + 4;
    for (let i = 0; i < count; i += 1)
      await store.putFile(`hls/song-9/segment-${String(i).padStart(5, '0')}.ts`, localFile(`segment ${i}`));
    await store.putFile('hls/song-9/index.m3u8', localFile('#EXTM3U\n'));
    await store.putFile('hls/song-90/index.m3u8', localFile('#EXTM3U\nneighbour\n')); // shares the string prefix "hls/song-9"
    await store.putFile('hls/song-9.bak', localFile('not under the folder'));

    await store.deletePrefix('hls/song-9/');
    expect(await store.exists('hls/song-9/index.m3u8')).toBe(false);
    for (let i = 0; i < count; i += 1) expect(await store.get(`hls/song-9/segment-${String(i).padStart(5, '0')}.ts`)).toBeNull();
    expect((await store.get('hls/song-90/index.m3u8'))?.toString()).toBe('#EXTM3U\nneighbour\n');
    expect(await store.exists('hls/song-9.bak')).toBe(true);

    await store.deletePrefix('hls/song-9/'); // nothing left: still fine
    await store.deletePrefix('hls/nothing-here/');
    await expect(store.deletePrefix('hls/song-90')).rejects.toThrow('deletePrefix takes a folder prefix ending in "/"');
    expect(await store.exists('hls/song-90/index.m3u8')).toBe(true);
  });

  it.each(['../escape', 'originals/../../etc/passwd', '/absolute', 'a//b', 'a/./b', '', 'spaces in/key', '.hidden', 'hls/x/..'])(
    'refuses the key %j in every call',
    async (key) => {
      const path = localFile('x');
      await expect(store.putFile(key, path)).rejects.toThrow(/invalid object key/);
      expect(existsSync(path)).toBe(true); // nothing was moved
      await expect(store.get(key)).rejects.toThrow(/invalid object key/);
      await expect(store.copyToFile(key, join(work, 'never'))).rejects.toThrow(/invalid object key/);
      await expect(store.exists(key)).rejects.toThrow(/invalid object key/);
      await expect(store.delete(key)).rejects.toThrow(/invalid object key/);
    },
  );
});

describe('S3Store specifics (against the stand-in)', () => {
  const keysUnder = (prefix: string) => s3.keys(BUCKET).filter((key) => key.startsWith(prefix));
  const requestsSince = (mark: number) => s3.requests.slice(mark);

  it('keeps every object under the key prefix, with content types for playlists and segments', async () => {
    const store = s3Store({ keyPrefix: 'tenant-a/' });
    await store.putFile('hls/s1/index.m3u8', localFile('#EXTM3U\n'));
    await store.putFile('hls/s1/segment-00000.ts', localFile(garbage(188 * 4)));
    await store.putFile('originals/s1', localFile('audio'));
    expect(keysUnder('tenant-a/')).toEqual(['tenant-a/hls/s1/index.m3u8', 'tenant-a/hls/s1/segment-00000.ts', 'tenant-a/originals/s1']);
    const objects = s3.buckets.get(BUCKET)!;
    expect(objects.get('tenant-a/hls/s1/index.m3u8')!.contentType).toBe('application/vnd.apple.mpegurl');
    expect(objects.get('tenant-a/hls/s1/segment-00000.ts')!.contentType).toBe('video/mp2t');
    expect(objects.get('tenant-a/originals/s1')!.contentType).toBe('application/octet-stream');

    // Another prefix in the same bucket sees none of it.
    const other = s3Store({ keyPrefix: 'tenant-b/' });
    expect(await other.get('originals/s1')).toBeNull();
    await other.deletePrefix('hls/s1/');
    expect(keysUnder('tenant-a/')).toHaveLength(3);
  });

  it('sends plain bodies: small files signed with their SHA-256, large ones streamed (UNSIGNED-PAYLOAD) with a Content-Length', async () => {
    const store = s3Store({ keyPrefix: 'bodies/' });
    const mark = s3.requests.length;
    await store.putFile('small', localFile(garbage(1000)));
    await store.putFile('large', localFile(garbage(200_000)));
    const [small, large] = requestsSince(mark);
    expect(small).toMatchObject({ method: 'PUT', path: `/${BUCKET}/bodies/small`, status: 200, rawBytes: 1000, bodyBytes: 1000 });
    expect(small!.headers['x-amz-content-sha256']).toMatch(/^[0-9a-f]{64}$/);
    expect(large).toMatchObject({ method: 'PUT', path: `/${BUCKET}/bodies/large`, status: 200, rawBytes: 200_000, bodyBytes: 200_000 });
    expect(large!.headers).toMatchObject({ 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD', 'content-length': '200000' });
    expect(large!.headers['content-encoding']).toBeUndefined();
  });

  it('pages through ListObjectsV2 and deletes in DeleteObjects batches of at most 1000 keys', async () => {
    const store = s3Store({ keyPrefix: 'many/' });
    const objects = s3.buckets.get(BUCKET)!;
    for (let i = 0; i < 2_345; i += 1) {
      objects.set(`many/hls/big/segment-${String(i).padStart(5, '0')}.ts`, {
        body: Buffer.from('x'),
        contentType: 'video/mp2t',
        etag: '"x"',
        lastModified: new Date(),
      });
    }
    const mark = s3.requests.length;
    await store.deletePrefix('hls/big/');
    expect(keysUnder('many/')).toEqual([]);
    const sent = requestsSince(mark);
    const lists = sent.filter((r) => r.query['list-type'] === '2');
    expect(lists).toHaveLength(Math.ceil(2_345 / PAGE_CAP));
    expect(lists.slice(1).every((r) => r.query['continuation-token'])).toBe(true);
    const deletes = sent.filter((r) => r.method === 'POST' && 'delete' in r.query);
    expect(deletes).toHaveLength(3);
    expect(deletes.every((r) => r.status === 200 && r.headers['x-amz-checksum-crc32'])).toBe(true);
  });

  it('fails loudly (not "missing") for a wrong access key, a wrong secret or a missing bucket', async () => {
    await expect(
      s3Store({ credentials: { accessKeyId: 'AKIAWRONG', secretAccessKey: SECRET_ACCESS_KEY } }).get('originals/x'),
    ).rejects.toMatchObject({
      name: 'InvalidAccessKeyId',
      $metadata: { httpStatusCode: 403 },
    });
    const wrongSecret = s3Store({ credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: 'not-the-secret' } });
    await expect(wrongSecret.get('originals/x')).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
      $metadata: { httpStatusCode: 403 },
    });
    await expect(wrongSecret.exists('originals/x')).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    await expect(wrongSecret.putFile('originals/x', localFile('x'))).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    const noBucket = s3Store({ bucket: 'no-such-bucket' });
    await expect(noBucket.get('originals/x')).rejects.toMatchObject({ name: 'NoSuchBucket', $metadata: { httpStatusCode: 404 } });
    await expect(noBucket.copyToFile('originals/x', join(work, 'never'))).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });
});

describe('the S3 stand-in', () => {
  it('answers as S3 does: NoSuchKey and AccessDenied XML, 403 InvalidAccessKeyId', async () => {
    const unsigned = await fetch(`${s3.endpoint}/${BUCKET}/originals/x`);
    expect(unsigned.status).toBe(403);
    expect(await unsigned.text()).toMatch(/<Error><Code>AccessDenied<\/Code><Message>Access Denied<\/Message>/);

    const store = s3Store();
    const mark = s3.requests.length;
    await expect(store.get('originals/nothing')).resolves.toBeNull();
    expect(s3.requests[mark]).toMatchObject({ method: 'GET', status: 404 });
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIAOTHER', secretAccessKey: 'x' },
    });
    try {
      await expect(client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'x', Body: 'x' }))).rejects.toMatchObject({
        name: 'InvalidAccessKeyId',
        message: 'The AWS Access Key Id you provided does not exist in our records.',
      });
    } finally {
      client.destroy();
    }
  });

  it('decodes the aws-chunked bodies (CRC32 trailer) the SDK sends with its default checksum settings, and refuses a wrong checksum', async () => {
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY },
    });
    try {
      const bytes = garbage(300_000, 'chunked');
      const path = localFile(bytes);
      const { createReadStream } = await import('node:fs');
      const mark = s3.requests.length;
      await client.send(
        new PutObjectCommand({ Bucket: BUCKET, Key: 'chunked/one', Body: createReadStream(path), ContentLength: bytes.length }),
      );
      const sent = s3.requests[mark]!;
      expect(sent.headers).toMatchObject({
        'content-encoding': 'aws-chunked',
        'x-amz-trailer': 'x-amz-checksum-crc32',
        'x-amz-decoded-content-length': String(bytes.length),
      });
      expect(sent.rawBytes).toBeGreaterThan(bytes.length);
      expect(s3.buckets.get(BUCKET)!.get('chunked/one')!.body.equals(bytes)).toBe(true);

      await expect(
        client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'chunked/two', Body: 'abc', ChecksumCRC32: 'AAAAAA==' })),
      ).rejects.toMatchObject({ name: 'BadDigest' });
      expect(s3.buckets.get(BUCKET)!.has('chunked/two')).toBe(false);
    } finally {
      client.destroy();
    }
  });
});
