// Preloaded (`node --import`) like packages/platform/src/telemetry/register.ts,
// with an in-memory exporter instead of OTLP: the trace test's child process.
import { register } from 'node:module';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { INSTRUMENTED_MODULES, startTelemetry } from '../../../packages/platform/src/telemetry/sdk.js';

// eslint-disable-next-line @typescript-eslint/no-deprecated -- import-in-the-middle ships only an async loader (hook.mjs), which needs module.register
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include: INSTRUMENTED_MODULES } });
const exporter = new InMemorySpanExporter();
const sdk = startTelemetry({ serviceName: 'spinroom-trace-test', spanProcessors: [new SimpleSpanProcessor({ exporter })] });
(globalThis as { __spinroomTrace?: unknown }).__spinroomTrace = { exporter, sdk };
