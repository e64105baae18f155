import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Counter,
  type Histogram,
  type Link,
  type Span,
} from '@opentelemetry/api';

/** The most origins one batch's consumer span links to (the SDK's default link limit). */
export const MAX_BATCH_LINKS = 128;

type Headers = Record<string, unknown>;
type OutgoingMessage = { headers?: Headers };
type ProducerBatch = { topicMessages?: Array<{ topic: string; messages: OutgoingMessage[] }> };
type IncomingMessage = { headers?: Record<string, unknown> };
type BatchPayload = { batch: { topic: string; partition: number; messages: IncomingMessage[] } };
type Patch = (original: (...args: unknown[]) => unknown) => (...args: unknown[]) => unknown;
/** The upstream instrumentation's private members this one replaces or uses. */
interface Upstream {
  _getSendBatchPatch: () => Patch;
  _getConsumerEachBatchPatch: (kafkaClient: unknown) => Patch;
  _sentMessages?: Counter;
  _consumedMessages?: Counter;
  _processDuration?: Histogram;
}

const SYSTEM = { 'messaging.system': 'kafka' } as const;

/** The first value of a Kafka header (a string, a Buffer, or a list of them), as a string. */
function headerText(value: unknown): string | undefined {
  const first: unknown = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'string') return first;
  if (Buffer.isBuffer(first)) return first.toString();
  return undefined;
}

/**
 * kafkajs's instrumentation, with spans per batch rather than per message
 * where the kit sends and consumes batches:
 *
 * - `sendBatch` (the kit's producer): one `send <topic>` span for the
 *   messages of a topic, whose `traceparent` (and baggage) every one of them
 *   carries, instead of a span, an id and a header encoding per message.
 *   Messages that already carry a `traceparent` (outbox events, staged by a
 *   request long before the relay sends them) get a span of their own in that
 *   trace, one per staged trace, so one trace still runs from the request
 *   through Kafka to the consumer.
 * - `eachBatch`: one `process <topic>` span for the batch, linked to the
 *   distinct traces its messages came from (at most MAX_BATCH_LINKS), with
 *   the handler's work under it, instead of a `poll` span and a span per
 *   message, each extracting its message's context.
 *
 * `eachMessage` consumers (the idempotent consumer) keep a `process` span per
 * message, a child of the trace it came from.
 */
export class BatchAwareKafkaJsInstrumentation extends KafkaJsInstrumentation {
  constructor() {
    super();
    const self = this as unknown as Upstream;
    self._getSendBatchPatch = () => this.sendBatchPatch();
    self._getConsumerEachBatchPatch = () => this.eachBatchPatch();
  }

  private upstream(): Upstream {
    return this as unknown as Upstream;
  }

  private sendBatchPatch(): Patch {
    const instrumentation = this;
    return (original) =>
      function sendBatch(this: unknown, ...args: unknown[]) {
        const spans: Span[] = [];
        const sent: Array<{ topic: string; count: number }> = [];
        for (const { topic, messages } of (args[0] as ProducerBatch).topicMessages ?? []) {
          sent.push({ topic, count: messages.length });
          spans.push(...instrumentation.startProducerSpans(topic, messages));
        }
        const count = (errorType?: string) => {
          for (const { topic, count } of sent) {
            instrumentation.upstream()._sentMessages?.add(count, {
              ...SYSTEM,
              'messaging.operation.name': 'send',
              'messaging.destination.name': topic,
              ...(errorType ? { 'error.type': errorType } : {}),
            });
          }
        };
        return instrumentation.endWith(spans, Promise.resolve(original.apply(this, args)), count);
      };
  }

  /** One span for the topic's messages without a trace of their own, one per staged trace for the rest; each message carries its span's context. */
  private startProducerSpans(topic: string, messages: OutgoingMessage[]): Span[] {
    const groups = new Map<string | undefined, OutgoingMessage[]>();
    for (const message of messages) {
      const staged = typeof message.headers?.traceparent === 'string' ? message.headers.traceparent : undefined;
      const group = groups.get(staged);
      if (group) group.push(message);
      else groups.set(staged, [message]);
    }
    const spans: Span[] = [];
    for (const [staged, group] of groups) {
      const parent = staged === undefined ? context.active() : propagation.extract(ROOT_CONTEXT, group[0]!.headers);
      const attributes: Attributes = {
        ...SYSTEM,
        'messaging.destination.name': topic,
        'messaging.operation.name': 'send',
        'messaging.operation.type': 'send',
      };
      if (group.length > 1) attributes['messaging.batch.message_count'] = group.length;
      const span = this.tracer.startSpan(`send ${topic}`, { kind: SpanKind.PRODUCER, attributes }, parent);
      const carrier: Record<string, string> = {};
      propagation.inject(trace.setSpan(parent, span), carrier);
      for (const message of group) message.headers = Object.assign(message.headers ?? {}, carrier);
      spans.push(span);
    }
    return spans;
  }

  private eachBatchPatch(): Patch {
    const instrumentation = this;
    return (original) =>
      function eachBatch(this: unknown, ...args: unknown[]) {
        const { topic, partition, messages } = (args[0] as BatchPayload).batch;
        const attributes: Attributes = {
          ...SYSTEM,
          'messaging.destination.name': topic,
          'messaging.destination.partition.id': String(partition),
          'messaging.operation.name': 'process',
          'messaging.operation.type': 'process',
          'messaging.batch.message_count': messages.length,
        };
        const span = instrumentation.tracer.startSpan(
          `process ${topic}`,
          { kind: SpanKind.CONSUMER, attributes, links: originLinks(messages) },
          ROOT_CONTEXT,
        );
        const started = Date.now();
        const metrics = (errorType?: string) => {
          const labels = {
            ...SYSTEM,
            'messaging.operation.name': 'process',
            'messaging.destination.name': topic,
            'messaging.destination.partition.id': String(partition),
            ...(errorType ? { 'error.type': errorType } : {}),
          };
          instrumentation.upstream()._consumedMessages?.add(messages.length, labels);
          instrumentation.upstream()._processDuration?.record((Date.now() - started) / 1000, labels);
        };
        const handled = context.with(trace.setSpan(ROOT_CONTEXT, span), () => original.apply(this, args));
        return instrumentation.endWith([span], Promise.resolve(handled), metrics);
      };
  }

  /** Ends the spans when `done` settles (with the error on each when it fails), after `metrics`. */
  private async endWith<T>(spans: Span[], done: Promise<T>, metrics: (errorType?: string) => void): Promise<T> {
    try {
      const result = await done;
      metrics();
      return result;
    } catch (error) {
      const errorType = error instanceof Error ? error.constructor.name : '_OTHER';
      metrics(errorType);
      for (const span of spans) {
        span.setAttribute('error.type', errorType);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      }
      throw error;
    } finally {
      for (const span of spans) span.end();
    }
  }
}

/** Links to the distinct traces a batch's messages came from; consecutive messages of one send share one. */
function originLinks(messages: IncomingMessage[]): Link[] {
  const links: Link[] = [];
  const seen = new Set<string>();
  let previous: unknown;
  for (const message of messages) {
    const raw = message.headers?.traceparent;
    if (raw === undefined || raw === previous || (Buffer.isBuffer(raw) && Buffer.isBuffer(previous) && raw.equals(previous))) continue;
    previous = raw;
    const traceparent = headerText(raw);
    if (traceparent === undefined || seen.has(traceparent)) continue;
    seen.add(traceparent);
    const origin = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent }));
    if (origin) links.push({ context: origin });
    if (links.length >= MAX_BATCH_LINKS) break;
  }
  return links;
}
