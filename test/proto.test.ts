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
  const typecheck = (project: string) => {
    try {
      execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', project], { cwd: root, stdio: 'pipe' });
    } catch (error) {
      throw new Error(String((error as { stdout?: Buffer }).stdout ?? error));
    }
  };
  it('type-checks the whole repository', () => typecheck('tsconfig.json'), 120_000);
  it('type-checks the web client (DOM types, JSX: web/tsconfig.json)', () => typecheck('web/tsconfig.json'), 120_000);
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
      execFileSync(join(root, 'node_modules/.bin/buf'), ['breaking', 'proto', '--against', '.git#branch=main,subdir=proto'], {
        cwd: root,
        stdio: 'pipe',
      });
    } catch (error) {
      throw new Error(String((error as { stdout?: Buffer }).stdout ?? error));
    }
  });
});
