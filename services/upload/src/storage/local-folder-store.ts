import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { checkKey, type ObjectStore } from './object-store.js';

/** An ObjectStore in a local folder: one file per key. Writes land atomically (temp file, then rename). */
export class LocalFolderStore implements ObjectStore {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    return join(this.root, checkKey(key));
  }

  async putFile(key: string, localPath: string): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await rename(localPath, temp);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await copyFile(localPath, temp);
      await unlink(localPath);
    }
    await rename(temp, target);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async copyToFile(key: string, localPath: string): Promise<void> {
    await copyFile(this.path(key), localPath, constants.COPYFILE_FICLONE);
  }

  async exists(key: string): Promise<boolean> {
    const path = this.path(key); // an invalid key throws, as in every other call
    try {
      return (await stat(path)).isFile();
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    if (!prefix.endsWith('/')) throw new Error('deletePrefix takes a folder prefix ending in "/"');
    await rm(this.path(prefix), { recursive: true, force: true });
  }
}
