import { defineConfig } from 'vitest/config';

// One project per workspace, plus the repository-level checks and the
// end-to-end tests in test/. `npm test` runs them all against real
// infrastructure (see scripts/test.ts).
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // expect.poll waits for what a browser or a replica shows next: 1 s (vitest's default) is too short
    // on these 2 shared cores while the rest of the suite runs (a room test failed so once).
    expect: { poll: { timeout: 10_000 } },
    projects: [
      { extends: true, test: { name: 'platform', root: 'packages/platform', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'user', root: 'services/user', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'playlist', root: 'services/playlist', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'upload', root: 'services/upload', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'chat', root: 'services/chat', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'room', root: 'services/room', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'points', root: 'services/points', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'payment', root: 'services/payment', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'bff', root: 'bff', include: ['test/**/*.test.ts'] } },
      { extends: true, test: { name: 'repo', include: ['test/**/*.test.ts'] } },
      // The web client's state logic and components, in a DOM (happy-dom); its browser tests are in test/e2e.
      {
        extends: true,
        esbuild: { jsx: 'automatic' },
        test: { name: 'web', root: 'web', environment: 'happy-dom', include: ['test/**/*.test.{ts,tsx}'] },
      },
    ],
  },
});
