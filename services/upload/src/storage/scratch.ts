import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { IncomingFile } from '../domain/songs.js';

/**
 * Local scratch space: incoming uploads while they are checked, and
 * transcoding work folders. Everything here is temporary; what a crash left
 * behind is swept at start-up.
 */
export class ScratchSpace {
  constructor(private readonly root: string) {}

  async init(sweepOlderThanMs = 3600_000): Promise<void> {
    await mkdir(this.root, { recursive: true });
    const now = Date.now();
    for (const name of await readdir(this.root)) {
      const path = join(this.root, name);
      const info = await stat(path).catch(() => undefined);
      if (info && now - info.mtimeMs > sweepOlderThanMs) await rm(path, { recursive: true, force: true });
    }
  }

  /** A file to receive an upload into. */
  async incomingFile(label: string, extension: string): Promise<IncomingFile> {
    await mkdir(this.root, { recursive: true });
    const path = join(this.root, `incoming-${label}-${randomBytes(4).toString('hex')}.${extension.replace(/[^a-z0-9]/gi, '')}`);
    const stream: WriteStream = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    let failure: Error | undefined;
    stream.on('error', (error) => (failure = error));
    return {
      path,
      async write(chunk) {
        if (failure) throw failure;
        // events.once removes both its listeners when either fires: a
        // per-chunk once('drain') + once('error') left an error listener behind.
        if (!stream.write(chunk)) await once(stream, 'drain');
      },
      async finish() {
        if (failure) throw failure;
        await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
      },
      async discard() {
        if (!stream.closed) await new Promise<void>((resolve) => stream.destroy().once('close', () => resolve()));
        await rm(path, { force: true });
      },
    };
  }

  /** A fresh folder for one piece of work; `remove()` deletes it and everything in it. */
  async workDir(label: string): Promise<{ path: string; remove(): Promise<void> }> {
    const path = join(this.root, `${label}-${randomBytes(4).toString('hex')}`);
    await mkdir(path, { recursive: true, mode: 0o700 });
    return { path, remove: () => rm(path, { recursive: true, force: true }) };
  }
}
