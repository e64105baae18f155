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
