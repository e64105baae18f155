import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkProbe, familyOf } from '../src/domain/audio-files.js';
import { FfmpegProbe } from '../src/media/probe.js';
import { garbage, makeAudio } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'spinroom-probe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const probe = new FfmpegProbe();

function file(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe('ffprobe and a decode check on real files', () => {
  it('accepts every accepted family, with its duration and tags', async () => {
    const cases = [
      ['mp3', 'audio/mpeg'],
      ['m4a', 'audio/mp4'],
      ['m4a', 'audio/aac'],
      ['wav', 'audio/wav'],
      ['ogg', 'audio/ogg'],
      ['flac', 'application/octet-stream'],
    ] as const;
    for (const [format, type] of cases) {
      const path = file(`tone.${format}`, makeAudio({ seconds: 3, format, title: `T ${format}`, artist: 'A' }));
      const accepted = checkProbe(familyOf(type, `tone.${format}`), type, await probe.probe(path));
      expect(Math.abs(accepted.durationMs - 3000), format).toBeLessThan(100);
      expect(accepted.tags, format).toMatchObject({ title: `T ${format}`, artist: 'A' });
    }
  });

  it('tells what is not media, and what does not decode', async () => {
    expect(await probe.probe(file('text.mp3', Buffer.from('hello world\n'.repeat(100))))).toBeNull();
    const damaged = await probe.probe(file('damaged.mp3', Buffer.concat([makeAudio({ seconds: 3 }).subarray(0, 2048), garbage(60_000)])));
    expect(damaged).toMatchObject({ formatName: 'mp3', decodes: false });
    const good = await probe.probe(file('good.mp3', makeAudio({ seconds: 2 })));
    expect(good).toMatchObject({ formatName: 'mp3', decodes: true });
  });

  it('stops ffprobe when the upload is abandoned', async () => {
    const abort = new AbortController();
    abort.abort(new Error('gone'));
    await expect(probe.probe(file('any.mp3', makeAudio({ seconds: 1 })), abort.signal)).rejects.toThrow('gone');
  });
});
