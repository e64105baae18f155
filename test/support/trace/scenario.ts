// The trace test's child: starts the test platform (every service and the
// BFF, in this one process, instrumented by preload.ts), updates a room over
// REST, waits until the playlist service has consumed the room event, and
// prints the finished spans as one JSON line.
import { SpanKind } from '@opentelemetry/api';
import type { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace';
import type { Telemetry } from '../../../packages/platform/src/telemetry/sdk.js';
import { eventually } from '@spinroom/platform/testing';
import { api, signedToken, startPlatform } from '../platform.js';

const { exporter, sdk } = (globalThis as unknown as { __spinroomTrace: { exporter: InMemorySpanExporter; sdk: Telemetry } })
  .__spinroomTrace;

const platform = await startPlatform();
let exitCode = 0;
try {
  const token = await signedToken('user');
  const created = await api(platform.baseUrl, 'POST', '/api/room-service/rooms/infrastructure', {
    token,
    body: { name: `Traced ${Date.now()}` },
  });
  if (created.status !== 201) throw new Error(`room not created: ${created.status}`);
  // The playlist service's new consumer group reads room-events from the
  // start: wait until it has caught up with the creation before tracing.
  const createdTrace = await traceOf('POST');
  await consumedIn(createdTrace, 90_000);
  exporter.reset();
  const updated = await api(platform.baseUrl, 'PATCH', `/api/room-service/rooms/${created.body.slug}`, {
    token,
    body: { description: 'traced' },
  });
  if (updated.status !== 200) throw new Error(`room not updated: ${updated.status}`);
  const traceId = await traceOf('PATCH');
  // Waits for the whole trace, however busy the machine: past the timeout the test says what is missing.
  const spans = await completeTrace(traceId, 60_000).catch(() => spansOf(traceId));
  process.stdout.write(`SPANS ${JSON.stringify(spans)}\n`);
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await platform.stop();
  await sdk.shutdown();
}
process.exit(exitCode);

async function traceOf(method: string): Promise<string> {
  const root = await eventually(async () =>
    exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER && s.name.startsWith(method) && !s.parentSpanContext),
  );
  return root.spanContext().traceId;
}

/** Resolves once the consumer's span of the trace has ended (the relay sent the event, the playlist service handled it). */
function consumedIn(traceId: string, timeoutMs: number) {
  return eventually(
    async () => exporter.getFinishedSpans().find((s) => s.spanContext().traceId === traceId && s.kind === SpanKind.CONSUMER),
    timeoutMs,
  );
}

function spansOf(traceId: string) {
  return exporter
    .getFinishedSpans()
    .filter((s) => s.spanContext().traceId === traceId)
    .map(toJson);
}

/**
 * The trace's spans once it is whole: the consumer's span has ended with its
 * database work under it, and every span's parent has ended too (spans end
 * after their children, on other clocks: the relay's, the consumer's).
 */
function completeTrace(traceId: string, timeoutMs: number) {
  return eventually(async () => {
    const spans = spansOf(traceId);
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    if (spans.some((s) => s.parentSpanId !== undefined && !byId.has(s.parentSpanId))) return undefined;
    const consumer = spans.find((s) => s.kind === SpanKind.CONSUMER);
    const under = (span: { parentSpanId?: string }, ancestor: string): boolean =>
      span.parentSpanId === ancestor || (span.parentSpanId !== undefined && under(byId.get(span.parentSpanId)!, ancestor));
    if (!consumer || !spans.some((s) => s.system === 'postgresql' && under(s, consumer.spanId))) return undefined;
    return spans;
  }, timeoutMs);
}

function toJson(span: ReadableSpan) {
  return {
    name: span.name,
    kind: span.kind,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    system:
      span.attributes['db.system.name'] ??
      span.attributes['db.system'] ??
      span.attributes['messaging.system'] ??
      span.attributes['rpc.system'],
  };
}
