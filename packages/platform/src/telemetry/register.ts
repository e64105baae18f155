// Loaded with `node --import` before the application, so the ESM loader hook
// and the instrumentations are in place before express, grpc-js, pg, ioredis
// or kafkajs are first imported.
import { registerLoaderHooks } from './loader.js';
import { INSTRUMENTED_MODULES, startTelemetry } from './sdk.js';

// Only the instrumented packages go through import-in-the-middle: wrapping
// every module (our own TypeScript included) is slow and warns on `export *`.
await registerLoaderHooks(INSTRUMENTED_MODULES);

if (process.env.OTEL_SDK_DISABLED !== 'true') {
  const sdk = startTelemetry({ serviceName: process.env.OTEL_SERVICE_NAME ?? 'spinroom' });
  const shutdown = () => void sdk.shutdown().catch(() => undefined);
  process.once('beforeExit', shutdown);
}
