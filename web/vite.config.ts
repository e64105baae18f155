import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The web client, built into web/dist, which the BFF serves as its WEB_DIR.
// JSX goes through esbuild (no Babel plugin needed); `npm start` rebuilds
// when the sources are newer than the build (scripts/lib/web-build.ts).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: false,
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    // hls.js (lazy, only once a song plays) is the one big chunk; the budget is checked by web/test/bundle-size.test.ts.
    chunkSizeWarningLimit: 400,
    rollupOptions: {
      // The page, and the service worker (Web Push, web/src/notifications/sw.ts) at /sw.js: a fixed
      // name at the root, as the browser registers it and its scope is the folder it is served from.
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        sw: fileURLToPath(new URL('src/notifications/sw.ts', import.meta.url)),
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
      },
      onwarn(warning, warn) {
        // React Query's "use client" directives mean nothing outside server components.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  logLevel: 'warn',
});
