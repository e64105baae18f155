import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

describe('house style', () => {
  it('is formatted and passes the linter (biome ci: `npm run format` and `npm run lint` fix and show)', () => {
    let output = '';
    try {
      execFileSync(join(root, 'node_modules/.bin/biome'), ['ci', '--colors=off', '--diagnostic-level=error', '.'], {
        cwd: root,
        stdio: 'pipe',
      });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
      output = `${stdout ?? ''}${stderr ?? ''}`;
    }
    expect(output, output).toBe('');
  }, 60_000);
});
