/**
 * Where originals and HLS output are kept, by key (`originals/<id>`,
 * `hls/<id>/index.m3u8`, ...). The local-folder implementation serves one
 * machine; `S3Store` keeps the same keys in an S3-compatible bucket.
 */
export interface ObjectStore {
  /** Stores a local file under a key (moving it when it can), replacing what was there. */
  putFile(key: string, localPath: string): Promise<void>;
  /** A whole object (playlists and segments are small), or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** Copies an object to a local file (ffmpeg wants a seekable input). */
  copyToFile(key: string, localPath: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Deletes every object whose key starts with the prefix (`hls/<id>/`). */
  deletePrefix(prefix: string): Promise<void>;
}

const KEY = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*\/?$/i;

/** Keys are plain relative paths: no `..`, no absolute paths, nothing odd. */
export function checkKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) throw new Error(`invalid object key: ${key}`);
  return key;
}
