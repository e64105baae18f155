import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./idle-memory-child.ts', import.meta.url));

/** Runs the child in `mode` with the chart's semi-spaces: the young generation's size before and after, and the reducer's logs. */
function run(mode: 'idle' | 'busy'): { before: number; after: number; logs: Array<{ msg: string; ms?: number }> } {
  const out = execFileSync(process.execPath, ['--max-semi-space-size=16', '--import', 'tsx', child, mode], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
}

describe('memory given back when idle', () => {
  it('shrinks the young generation that start-up grew, once the event loop is idle', () => {
    const { before, after, logs } = run('idle');
    expect(before).toBeGreaterThan(16 * 2 ** 20);
    expect(after).toBeLessThan(4 * 2 ** 20);
    expect(logs.filter((l) => l.msg === 'idle: memory-reducing collection')).toHaveLength(1);
  });

  it('collects nothing while the event loop is busy', () => {
    const { before, after, logs } = run('busy');
    expect(logs.filter((l) => l.msg === 'idle: memory-reducing collection')).toEqual([]);
    expect(after).toBeGreaterThan(16 * 2 ** 20);
    expect(before).toBeGreaterThan(16 * 2 ** 20);
  });
});
