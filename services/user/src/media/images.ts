import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageFiles } from '../domain/profiles/images.js';

/** Image bytes in a folder, one file per id; written to a temporary name, then renamed into place. */
export class FolderImageFiles implements ImageFiles {
  constructor(private readonly root: string) {}

  private path(id: string): string {
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error(`invalid image id: ${id}`);
    return join(this.root, `${id}.webp`);
  }

  async put(id: string, content: Buffer): Promise<void> {
    const target = this.path(id);
    await mkdir(this.root, { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, content);
    await rename(temp, target);
  }

  async get(id: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(id: string): Promise<void> {
    await rm(this.path(id), { force: true });
  }
}
