import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

describe('proto contracts', () => {
  it('pass buf lint (STANDARD)', () => {
    expect(() => execFileSync(join(root, 'node_modules/.bin/buf'), ['lint', 'proto'], { cwd: root, stdio: 'pipe' })).not.toThrow();
  });
});

describe('TypeScript', () => {
  it('type-checks the whole repository', () => {
    try {
      execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: root, stdio: 'pipe' });
    } catch (error) {
      throw new Error(String((error as { stdout?: Buffer }).stdout ?? error));
    }
  }, 120_000);
});

describe('proto compatibility', () => {
  it('has no breaking change against main (buf breaking, FILE rules)', () => {
    const hasMain = (() => {
      try {
        execFileSync('git', ['rev-parse', '--verify', '--quiet', 'main'], { cwd: root, stdio: 'pipe' });
        return true;
      } catch {
        return false;
      }
    })();
    if (!hasMain) return; // a checkout without a main branch has nothing to compare against
    try {
      execFileSync(join(root, 'node_modules/.bin/buf'), ['breaking', 'proto', '--against', '.git#branch=main,subdir=proto'], { cwd: root, stdio: 'pipe' });
    } catch (error) {
      throw new Error(String((error as { stdout?: Buffer }).stdout ?? error));
    }
  });
});
