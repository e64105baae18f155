import type { IncomingMessage, ServerResponse } from 'node:http';
import { metrics, type Attributes, type Counter, type Histogram, type UpDownCounter } from '@opentelemetry/api';

/**
 * The platform's RED metrics (rate, errors, duration) and the room feed's,
 * recorded through the OpenTelemetry API and served for Prometheus at
 * `:$METRICS_PORT/metrics` by every process that sets METRICS_PORT (sdk.ts).
 * Without it the API's meter is a no-op and recording costs next to nothing.
 *
 * Prometheus names (docs/operations.md has the queries):
 *   spinroom_rest_request_duration_seconds{method, route, status}
 *   spinroom_rpc_server_duration_seconds{rpc, code}
 *   spinroom_kafka_consume_duration_seconds{topic, group, outcome}
 *   spinroom_feed_connections, spinroom_feed_messages_total{direction},
 *   spinroom_feed_delivery_latency_seconds
 */
export const METER_NAME = 'spinroom';

/** Seconds: 5 ms to 10 s, for request, call and event handling times. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: 1 ms to 5 s, for how long a room frame took to reach the sockets. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

interface Instruments {
  rest: Histogram;
  rpc: Histogram;
  consume: Histogram;
  feedConnections: UpDownCounter;
  feedMessages: Counter;
  feedLatency: Histogram;
}

let instruments: Instruments | undefined;

/**
 * Made on first use, not at import: the meter provider is set when the SDK
 * starts, and a meter taken before that stays a no-op.
 */
function meter(): Instruments {
  if (instruments) return instruments;
  const m = metrics.getMeter(METER_NAME);
  instruments = {
    rest: m.createHistogram('spinroom_rest_request_duration_seconds', {
      description: 'REST requests served by the BFF, by route and status',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    rpc: m.createHistogram('spinroom_rpc_server_duration_seconds', {
      description: 'gRPC calls handled, by method and status code',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    consume: m.createHistogram('spinroom_kafka_consume_duration_seconds', {
      description: 'Kafka events handled by a consumer, by topic, group and outcome',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    feedConnections: m.createUpDownCounter('spinroom_feed_connections', { description: 'Open room feed WebSockets' }),
    feedMessages: m.createCounter('spinroom_feed_messages', { description: 'Room feed messages: in from clients, out to sockets' }),
    feedLatency: m.createHistogram('spinroom_feed_delivery_latency_seconds', {
      description: 'From a room frame being sent (its sentAt) to its delivery to the sockets here',
      unit: 's',
      advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
    }),
  };
  return instruments;
}

/** Forgets the instruments (tests that install a new meter provider). */
export function resetMetricsForTests(): void {
  instruments = undefined;
}

type RoutedRequest = IncomingMessage & { route?: { path?: unknown }; baseUrl?: string };

/**
 * Express middleware: one observation per response, labelled by the route
 * pattern (`/api/room-service/rooms/:slug`, never the raw URL) or `unmatched`.
 */
export function restMetrics() {
  return (req: RoutedRequest, res: ServerResponse, next: () => void): void => {
    const started = performance.now();
    res.once('finish', () => {
      const path = req.route?.path;
      const route = typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : 'unmatched';
      meter().rest.record((performance.now() - started) / 1000, { method: req.method ?? 'GET', route, status: String(res.statusCode) });
    });
    next();
  };
}

/** One handled gRPC call: `rpc` is the call's path, `code` the status name (OK, NOT_FOUND, ...). */
export function recordRpc(rpc: string, code: string, startedMs: number): void {
  meter().rpc.record((performance.now() - startedMs) / 1000, { rpc, code });
}

export type ConsumeOutcome = 'processed' | 'duplicate' | 'dead_lettered';

/** One event taken off Kafka by a consumer, retries included in its duration. */
export function recordConsumedEvent(attributes: { topic: string; group: string; outcome: ConsumeOutcome }, startedMs: number): void {
  meter().consume.record((performance.now() - startedMs) / 1000, attributes);
}

const IN: Attributes = { direction: 'in' };
const OUT: Attributes = { direction: 'out' };

/** The room feed's counters: a few additions per frame, never per socket. */
export const feedMetrics = {
  connected(): void {
    meter().feedConnections.add(1);
  },
  disconnected(): void {
    meter().feedConnections.add(-1);
  },
  /** A message from a client. */
  received(): void {
    meter().feedMessages.add(1, IN);
  },
  /** A frame handed to `sockets` sockets; its latency from the frame's `sentAt` (ms since the epoch), when it has one. */
  delivered(sockets: number, sentAtMs: number | undefined): void {
    const m = meter();
    m.feedMessages.add(sockets, OUT);
    if (sentAtMs !== undefined) m.feedLatency.record(Math.max(0, Date.now() - sentAtMs) / 1000);
  },
};

/**
 * The `sentAt` of a frame's JSON (`{"context":"user","room":..,"from":"server","sentAt":<ms>,...}`),
 * read without parsing the frame; undefined when it has none near the start.
 */
export function frameSentAt(json: string): number | undefined {
  const at = json.indexOf('"sentAt":');
  if (at < 0 || at > 160) return undefined;
  const value = Number.parseInt(json.slice(at + 9, at + 25), 10);
  return Number.isFinite(value) ? value : undefined;
}
