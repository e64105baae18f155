import { mkdtempSync, rmSync, statSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ScratchSpace } from '../src/storage/scratch.js';

// The real write streams, kept to count their listeners.
const opened: WriteStream[] = [];
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return {
    ...fs,
    createWriteStream: (...args: Parameters<typeof fs.createWriteStream>) => {
      const stream = fs.createWriteStream(...args);
      opened.push(stream);
      return stream;
    },
  };
});

const root = mkdtempSync(join(tmpdir(), 'spinroom-scratch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('scratch space', () => {
  it('receives an upload chunk by chunk, waiting on backpressure, without adding listeners per chunk', async () => {
    const file = await new ScratchSpace(root).incomingFile('song', 'mp3');
    const stream = opened.at(-1)!;
    const before = { error: stream.listenerCount('error'), drain: stream.listenerCount('drain') };
    const chunk = Buffer.alloc(64 * 1024, 7); // above the stream's high-water mark: every write waits for drain
    for (let i = 0; i < 100; i += 1) await file.write(chunk);
    expect({ error: stream.listenerCount('error'), drain: stream.listenerCount('drain') }).toEqual(before);
    await file.finish();
    expect(statSync(file.path).size).toBe(100 * chunk.length);
    await file.discard();
  });
});
