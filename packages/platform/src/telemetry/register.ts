// Loaded with `node --import` before the application, so the ESM loader hook
// and the instrumentations are in place before express, grpc-js, pg, ioredis
// or kafkajs are first imported.
import { register } from 'node:module';
import { INSTRUMENTED_MODULES, startTelemetry } from './sdk.js';

// Only the instrumented packages go through import-in-the-middle: wrapping
// every module (our own TypeScript included) is slow and warns on `export *`.
// eslint-disable-next-line @typescript-eslint/no-deprecated -- import-in-the-middle ships only an async loader (hook.mjs), which needs module.register
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, {
  data: { include: INSTRUMENTED_MODULES },
});

if (process.env.OTEL_SDK_DISABLED !== 'true') {
  const sdk = startTelemetry({ serviceName: process.env.OTEL_SERVICE_NAME ?? 'spinroom' });
  const shutdown = () => void sdk.shutdown().catch(() => undefined);
  process.once('beforeExit', shutdown);
}
