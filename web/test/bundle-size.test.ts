import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../build';

/** The production build's budget (web/README.md): gzipped bytes. */
export const BUDGET = {
  /** What the first page load needs: index.html, the entry script and the styles. */
  initialKiB: 130,
  /** Everything, hls.js and the providers' adapters (each loaded when a song first plays on it) included. */
  totalKiB: 314,
};

describe('the production build', () => {
  it('stays within its size budget', { timeout: 180_000 }, () => {
    const dist = ensureWebBuild();
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const assets = readdirSync(join(dist, 'assets'));
    const gz = (file: string) => gzipSync(readFileSync(file)).length / 1024;
    const initial = [join(dist, 'index.html'), ...assets.filter((a) => html.includes(`/assets/${a}`)).map((a) => join(dist, 'assets', a))];
    const initialKiB = initial.reduce((sum, f) => sum + gz(f), 0);
    const totalKiB = gz(join(dist, 'index.html')) + assets.reduce((sum, a) => sum + gz(join(dist, 'assets', a)), 0);
    expect(initial.length).toBeGreaterThanOrEqual(3);
    expect(initialKiB).toBeLessThanOrEqual(BUDGET.initialKiB);
    expect(totalKiB).toBeLessThanOrEqual(BUDGET.totalKiB);
  });
});
