// Preloaded (`node --import`) like packages/platform/src/telemetry/register.ts,
// with an in-memory exporter instead of OTLP: the trace test's child process.
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { registerLoaderHooks } from '../../../packages/platform/src/telemetry/loader.js';
import { INSTRUMENTED_MODULES, startTelemetry } from '../../../packages/platform/src/telemetry/sdk.js';

await registerLoaderHooks(INSTRUMENTED_MODULES);
const exporter = new InMemorySpanExporter();
const sdk = startTelemetry({ serviceName: 'spinroom-trace-test', spanProcessors: [new SimpleSpanProcessor({ exporter })] });
(globalThis as { __spinroomTrace?: unknown }).__spinroomTrace = { exporter, sdk };
