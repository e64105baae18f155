import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { checkKey, type ObjectStore } from './object-store.js';

export interface S3StoreOptions {
  bucket: string;
  region: string;
  /** For S3-compatible services (MinIO, R2, Ceph...); unset: AWS S3. */
  endpoint?: string;
  /** `http://endpoint/bucket/key` instead of `http://bucket.endpoint/key`. */
  forcePathStyle: boolean;
  /** Unset: the SDK's default chain (AWS_* variables, profiles, instance or task roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Prepended to every key (`""` or ending in `/`), to share a bucket. */
  keyPrefix?: string;
  /**
   * Files up to this size are sent from memory (the SDK can retry them and
   * their SHA-256 is signed); larger ones are streamed from disk (unsigned
   * payload, not retried). 8 MiB by default.
   */
  inMemoryPutBytes?: number;
}

const CONTENT_TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
  key: 'application/octet-stream',
};

/** The content type an object is stored with, from its key's extension. */
export function contentTypeFor(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return (dot > 0 && CONTENT_TYPES[name.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}

/** Whether an SDK error says the object is not there (GetObject: NoSuchKey; HEAD: a bare 404). */
function isMissing(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  if (error.name === 'NoSuchKey' || error.name === 'NotFound') return true;
  return error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket';
}

/** The error a missing object gives, shaped like the local store's (code ENOENT). */
function missing(key: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOENT: no such object: ${key}`), { code: 'ENOENT' });
}

/**
 * An ObjectStore in an S3-compatible bucket (AWS SDK v3). Same keys and
 * behaviours as the local folder: `putFile` moves the local file (uploads it,
 * then removes it), `get` answers null for a missing key, `delete` is
 * idempotent, `deletePrefix` lists every page and deletes in batches of 1000.
 */
export class S3Store implements ObjectStore {
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly inMemoryPutBytes: number;

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.keyPrefix ?? '';
    if (this.prefix && !this.prefix.endsWith('/')) throw new Error('the key prefix must end in "/"');
    if (this.prefix) checkKey(this.prefix);
    this.inMemoryPutBytes = options.inMemoryPutBytes ?? 8 * 1024 * 1024;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // Checksums only where S3 requires them (DeleteObjects): the SDK's default
      // (CRC32 trailers in aws-chunked bodies on every PutObject) is refused by
      // several S3-compatible services.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
  }

  private key(key: string): string {
    return this.prefix + checkKey(key);
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const objectKey = this.key(key);
    const { size } = await stat(localPath);
    const body: Buffer | Readable = size <= this.inMemoryPutBytes ? await readFile(localPath) : createReadStream(localPath);
    try {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: objectKey, Body: body, ContentLength: size, ContentType: contentTypeFor(key) }),
      );
    } finally {
      if (!Buffer.isBuffer(body)) body.destroy();
    }
    await rm(localPath, { force: true });
  }

  async get(key: string): Promise<Buffer | null> {
    const objectKey = this.key(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: objectKey }));
      const bytes = await answer.Body!.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async copyToFile(key: string, localPath: string): Promise<void> {
    const objectKey = this.key(key);
    let body: Readable;
    try {
      body = (await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: objectKey }))).Body as Readable;
    } catch (error) {
      if (isMissing(error)) throw missing(key);
      throw error;
    }
    try {
      await pipeline(body, createWriteStream(localPath, { mode: 0o600 }));
    } catch (error) {
      await rm(localPath, { force: true });
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
    } catch (error) {
      if (!isMissing(error)) throw error; // S3 answers 204 either way; some compatibles say NoSuchKey
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    if (!prefix.endsWith('/')) throw new Error('deletePrefix takes a folder prefix ending in "/"');
    const listed = this.key(prefix);
    // List everything first, then delete: continuation tokens stay valid on every implementation.
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: listed, ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const answer = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      const failed = answer.Errors ?? [];
      if (failed.length > 0) {
        throw new Error(
          `could not delete ${failed.length} object(s) under ${listed}: ${failed[0]!.Key} ${failed[0]!.Code} ${failed[0]!.Message ?? ''}`.trim(),
        );
      }
    }
  }

  /** Closes the client's connections. */
  destroy(): void {
    this.client.destroy();
  }
}
