import { defineConfig } from 'vitest/config';
import { SERVICE_NAMES } from './packages/platform/src/kit/service-list.js';

// One project per workspace (a service's from the list of services), plus the repository-level checks and the
// end-to-end tests in test/. `npm test` runs them all against real
// infrastructure (see scripts/test.ts).
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // Both cores (vitest's default leaves one idle on two): a test platform's start is mostly
    // waiting on PostgreSQL, Kafka and its services' joins, and with ten services one worker
    // spent most of a run idle (load average 1 on two cores).
    maxWorkers: 2,
    // expect.poll waits for what a browser or a replica shows next: 1 s (vitest's default) is too short
    // on these 2 shared cores while the rest of the suite runs (a room test failed so once).
    expect: { poll: { timeout: 10_000 } },
    experimental: { fsModuleCache: true },
    projects: [
      { extends: true, test: { name: 'platform', root: 'packages/platform', include: ['test/**/*.test.ts'] } },
      ...SERVICE_NAMES.map((name) => ({
        extends: true as const,
        test: { name, root: `services/${name}`, include: ['test/**/*.test.ts'] },
      })),
      { extends: true, test: { name: 'bff', root: 'bff', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'repo', include: ['test/**/*.test.ts'] } },
      // The web client's state logic and components, in a DOM (happy-dom); its browser tests are in test/e2e.
      {
        extends: true,
        esbuild: { jsx: 'automatic' },
        test: {
          name: 'web',
          root: 'web',
          environment: 'happy-dom',
          include: ['test/**/*.test.{ts,tsx}'],
          setupFiles: ['test/setup.ts'],
        },
      },
    ],
  },
});
