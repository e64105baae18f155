// The bundles' source maps, reduced by deploy/docker/build.mjs to the
// mappings where the original line changes: a frame anywhere in the bundle
// still maps to the file and line it came from, but in the generated protobuf
// code, which maps to nothing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

describe("the bundles' source maps", () => {
  const out = mkdtempSync(join(tmpdir(), 'spinroom-maps-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('map every column of a bundled line to the original line, with far fewer mappings than tokens', () => {
    execFileSync(process.execPath, [join(repoRoot, 'deploy/docker/build.mjs'), 'bff', out], { cwd: repoRoot, stdio: 'pipe' });
    const map = JSON.parse(readFileSync(join(out, 'main.js.map'), 'utf8')) as SourceMapPayload & { names: string[] };
    const bundle = readFileSync(join(out, 'main.js'), 'utf8').split('\n');
    const sourceMap = new SourceMap(map);
    // Lines of the original that esbuild prints on one line with others (a call's arguments, a class's fields)
    // and lines of their own: each string below is on one line of its source file.
    const cases: Array<[string, string]> = [
      ['bff/src/feed/feed-server.ts', "'slow feed client dropped'"],
      ['bff/src/feed/feed-server.ts', "'feed gap; resetting connection'"],
      ['bff/src/feed/room-channels.ts', "'malformed feed frame dropped'"],
      ['packages/platform/src/errors.ts', "this.name = 'AppError'"],
    ];
    for (const [file, text] of cases) {
      const sourceLine = readFileSync(join(repoRoot, file), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes(text));
      const bundledLine = bundle.findIndex((l) => l.includes(text.replace(/'/g, '"')) || l.includes(text));
      expect(sourceLine).toBeGreaterThanOrEqual(0);
      expect(bundledLine).toBeGreaterThanOrEqual(0);
      const column = Math.max(bundle[bundledLine]!.indexOf(text.replace(/'/g, '"')), bundle[bundledLine]!.indexOf(text));
      for (const at of [column, bundle[bundledLine]!.length - 1]) {
        const entry = sourceMap.findEntry(bundledLine, at) as { originalSource?: string; originalLine?: number };
        expect(entry.originalSource).toMatch(new RegExp(`${file.replace(/[./]/g, '\\$&')}$`));
        expect(entry.originalLine).toBe(sourceLine);
      }
    }
    // The generated protobuf code maps to nothing (its frames keep their place in the bundle), not to the code before it.
    const generatedLine = bundle.findIndex((l) => l.includes('encode(message, writer = new BinaryWriter())'));
    expect(generatedLine).toBeGreaterThanOrEqual(0);
    expect((sourceMap.findEntry(generatedLine, 4) as { originalSource?: string }).originalSource).toBeUndefined();
    expect(map.names).toEqual([]);
    // One mapping per line at most, or per change of original line: far fewer than one per token.
    expect(map.mappings.split(/[;,]/).filter(Boolean).length).toBeLessThan(bundle.length * 2);
  });
});
