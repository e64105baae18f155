// Loaded with `node --import` before the application, so the ESM loader hook
// and the instrumentations are in place before express, grpc-js, pg, ioredis
// or kafkajs are first imported.
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { registerLoaderHooks } from './loader.js';
import { INSTRUMENTED_MODULES, startTelemetry } from './sdk.js';

/** `true` in a bundle that loads the instrumented packages with `require` (deploy/docker/build.mjs); undefined from source. */
declare const __SPINROOM_INSTRUMENTED_BY_REQUIRE__: boolean | undefined;
const instrumentedByRequire = typeof __SPINROOM_INSTRUMENTED_BY_REQUIRE__ !== 'undefined' && __SPINROOM_INSTRUMENTED_BY_REQUIRE__;

// Only the instrumented packages go through import-in-the-middle: wrapping
// every module (our own TypeScript included) is slow and warns on `export *`.
// A bundle that requires them needs no hook, nor its thread (a V8 isolate of its own).
if (!instrumentedByRequire) await registerLoaderHooks(INSTRUMENTED_MODULES);

if (process.env.OTEL_SDK_DISABLED !== 'true') {
  const sdk = startTelemetry({ serviceName: process.env.OTEL_SERVICE_NAME ?? 'spinroom' });
  const shutdown = () => void sdk.shutdown().catch(() => undefined);
  process.once('beforeExit', shutdown);
  if (instrumentedByRequire) {
    // Without the hook, builtins are patched when first required: do it now,
    // then give ESM imports of them (`import { request } from 'node:http'`) the patched functions.
    const require = createRequire(import.meta.url);
    for (const builtin of ['node:http', 'node:https']) require(builtin);
    syncBuiltinESMExports();
  }
}
