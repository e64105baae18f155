import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** Runs a checker from node_modules/.bin and returns what it printed when it failed ('' when it passed). */
function complaints(tool: string, args: string[]): string {
  try {
    execFileSync(join(root, 'node_modules/.bin', tool), args, { cwd: root, stdio: 'pipe' });
    return '';
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    return `${stdout ?? ''}${stderr ?? ''}`;
  }
}

describe('house style', () => {
  it('is formatted and passes the linter (biome ci: `npm run format` and `npm run lint` fix and show)', () => {
    const output = complaints('biome', ['ci', '--colors=off', '--diagnostic-level=error', '.']);
    expect(output, output).toBe('');
  }, 60_000);

  // typescript-eslint's type-aware rules (eslint.config.js): about a minute of
  // CPU for both tsconfigs' programs, longer while other tests share the cores.
  it("passes ESLint's type-aware rules (floating promises, exhaustive switches, thrown non-errors...)", () => {
    const output = complaints('eslint', ['--max-warnings=0', '.']);
    expect(output, output).toBe('');
  }, 300_000);
});
