// One trace follows a user action across the platform: the BFF's REST route,
// the gRPC call to the room service, its PostgreSQL and Redis work, the
// room-events message (staged in the outbox, sent later by the relay) and the
// playlist service's consumer on the other side of Kafka.
//
// The instrumentations patch modules as Node loads them, as in production
// (`node --import @spinroom/platform/telemetry/register`); vitest's module
// runner loads packages its own way, so the platform runs in a child Node
// process preloaded with the same SDK and an in-memory span exporter
// (test/support/trace/), and hands back the finished spans of the trace.
import { spawn } from 'node:child_process';
import { SpanKind } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';

interface SpanJson {
  name: string;
  kind: SpanKind;
  spanId: string;
  parentSpanId?: string;
  system?: string;
}

async function tracedRoomUpdate(): Promise<SpanJson[]> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './test/support/trace/preload.ts', 'test/support/trace/scenario.ts'],
    {
      cwd: new URL('../..', import.meta.url).pathname,
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const line = out.split('\n').find((l) => l.startsWith('SPANS '));
  if (code !== 0 || !line) throw new Error(`the traced platform failed (exit ${code}):\n${err.slice(-4000)}`);
  return JSON.parse(line.slice('SPANS '.length)) as SpanJson[];
}

describe('one trace across the platform', () => {
  it('follows a room update from the REST route through gRPC, PostgreSQL, Redis and Kafka to the consumer', async () => {
    const spans = await tracedRoomUpdate();
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const ancestors = (span: SpanJson): SpanJson[] => {
      const chain: SpanJson[] = [];
      for (let parent = byId.get(span.parentSpanId ?? ''); parent; parent = byId.get(parent.parentSpanId ?? '')) chain.push(parent);
      return chain;
    };
    const one = (predicate: (s: SpanJson) => boolean, what: string) => {
      const found = spans.find(predicate);
      expect(found, what).toBeDefined();
      return found!;
    };

    const root = one((s) => s.kind === SpanKind.SERVER && s.name === 'PATCH /api/room-service/rooms/:slug', 'the REST route');
    expect(root.parentSpanId).toBeUndefined();
    const rpc = 'grpc.spinroom.room.v1.RoomService/UpdateRoom';
    const client = one((s) => s.kind === SpanKind.CLIENT && s.name === rpc, 'the BFF calls the room service');
    const server = one((s) => s.kind === SpanKind.SERVER && s.name === rpc, 'the room service serves the call');
    expect(ancestors(client)).toContain(root);
    expect(ancestors(server)).toContain(client);

    const under = (span: SpanJson) => (s: SpanJson) => ancestors(s).includes(span);
    expect(
      spans.filter((s) => s.system === 'postgresql').filter(under(server)).length,
      'the room service writes PostgreSQL',
    ).toBeGreaterThan(0);
    expect(spans.filter((s) => s.system === 'redis').filter(under(server)).length, 'the live room follows in Redis').toBeGreaterThan(0);

    const send = one((s) => s.kind === SpanKind.PRODUCER && s.name === 'send room-events', 'the relay sends the staged event');
    expect(ancestors(send), 'the send continues the request that staged the event').toContain(server);
    const consumed = one((s) => s.kind === SpanKind.CONSUMER && s.name === 'process room-events', 'the playlist service consumes it');
    expect(ancestors(consumed)).toContain(send);
    expect(
      spans.filter((s) => s.system === 'postgresql').filter(under(consumed)).length,
      'the consumer records the event in its database',
    ).toBeGreaterThan(0);
  }, 180_000);
});
