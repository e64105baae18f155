import { describe, expect, it } from 'vitest';
import { boundedStep } from '../src/kit/service.js';
import type { Logger } from '../src/logging.js';

/** A logger that keeps its warnings. */
function recording() {
  const warnings: Array<{ fields: Record<string, unknown>; message: string }> = [];
  const logger = { warn: (fields: Record<string, unknown>, message: string) => warnings.push({ fields, message }) } as unknown as Logger;
  return { logger, warnings };
}

describe('a step of a service stop', () => {
  it('waits for a step that finishes, and passes on its failure', async () => {
    const { logger, warnings } = recording();
    let done = false;
    await boundedStep(
      async () => {
        await new Promise((r) => setTimeout(r, 20));
        done = true;
      },
      logger,
      1_000,
    );
    expect(done).toBe(true);
    await expect(boundedStep(() => Promise.reject(new Error('pool gone')), logger, 1_000)).rejects.toThrow('pool gone');
    expect(warnings).toEqual([]);
  });

  it('leaves a step that hangs behind with a warning, and a late failure of it reaches the log, not the process', async () => {
    const { logger, warnings } = recording();
    const started = Date.now();
    await boundedStep(() => new Promise<void>(() => undefined), logger, 50);
    expect(Date.now() - started).toBeLessThan(1_000);
    let fail!: (error: Error) => void;
    await boundedStep(() => new Promise<void>((_, reject) => (fail = reject)), logger, 50);
    fail(new Error('leave group timed out'));
    await new Promise((r) => setTimeout(r, 10));
    expect(warnings.map((w) => w.message)).toEqual([
      'a step of the stop did not finish; going on',
      'a step of the stop did not finish; going on',
      'a step left behind failed',
    ]);
    expect(warnings[0]!.fields).toMatchObject({ afterMs: 50 });
  });
});
