import {
  context,
  createNoopMeter,
  DiagConsoleLogger,
  diag,
  metrics,
  propagation,
  ROOT_CONTEXT,
  trace,
  type MeterProvider,
  type Span,
  type TextMapPropagator,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  diagLogLevelFromString,
  getBooleanFromEnv,
  getNumberFromEnv,
  getStringFromEnv,
  getStringListFromEnv,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import {
  defaultResource,
  detectResources,
  hostDetector,
  osDetector,
  processDetector,
  resourceAttributesEnvDetector,
  resourceFromAttributes,
  serviceInstanceIdDetector,
  serviceNameEnvDetector,
  type ResourceDetector,
} from '@opentelemetry/resources';
import { MeterProvider as SdkMeterProvider } from '@opentelemetry/sdk-metrics';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NoopSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { BatchAwareKafkaJsInstrumentation } from './kafka-spans.js';
import { incomingRequestAttributes, outgoingRequestAttributes, pathAsRoute, redisStatement } from './redact.js';

const NO_METRICS: MeterProvider = { getMeter: () => createNoopMeter() };

/** The instrumentations every Spinroom process runs with. */
export function instrumentations() {
  return [
    // The room feed's URL carries the access token: never into a span. Other
    // URLs carry phone numbers and emails: redacted (redact.ts).
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (req) => req.url === '/healthz' || req.url === '/readyz' || (req.url ?? '').startsWith('/primus'),
      startIncomingSpanHook: incomingRequestAttributes,
      startOutgoingSpanHook: outgoingRequestAttributes,
      applyCustomAttributesOnSpan: pathAsRoute,
    }),
    // No Express instrumentation: the BFF's routes name their spans (nameHttpRoute).
    new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
    new PgInstrumentation({ requireParentSpan: true }),
    new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: redisStatement }),
    new OutboxAwareKafkaJsInstrumentation(),
  ];
}

/** A Prometheus endpoint at `METRICS_HOST:METRICS_PORT/metrics` (host 127.0.0.1 unless set), when METRICS_PORT is set. */
function metricReaders(): PrometheusExporter[] {
  const port = process.env.METRICS_PORT;
  if (!port) return [];
  return [
    new PrometheusExporter({
      host: process.env.METRICS_HOST ?? '127.0.0.1',
      port: Number(port),
      endpoint: '/metrics',
      // Every series says which service it is from, besides the pod Prometheus adds.
      withResourceConstantLabels: /^service\.name$/,
    }),
  ];
}

/** The packages the ESM loader hook wraps for the instrumentations above (register.ts). */
export const INSTRUMENTED_MODULES = ['@grpc/grpc-js', 'pg', 'ioredis', 'kafkajs', 'http', 'https', 'node:http', 'node:https'];

type ProducerSpanStarter = (topic: string, message: { headers?: Record<string, unknown> }, client: unknown) => Span;

/**
 * kafkajs's instrumentation starts each `send` span in the active context and
 * writes its own `traceparent` over the message's. Outbox events are sent by
 * the relay, long after the request that staged them (and outside its
 * context), with that request's `traceparent` already in their headers: the
 * send span continues that trace instead, so one trace runs from the user's
 * request through Kafka to the consumer on the other side. (The kit's
 * `sendBatch` does the same with a span per batch and staged trace: kafka-spans.ts.)
 */
class OutboxAwareKafkaJsInstrumentation extends BatchAwareKafkaJsInstrumentation {
  constructor() {
    super();
    const self = this as unknown as { _startProducerSpan: ProducerSpanStarter };
    const start = self._startProducerSpan.bind(this);
    self._startProducerSpan = (topic, message, client) => {
      const headers = message.headers;
      if (!headers || typeof headers.traceparent !== 'string') return start(topic, message, client);
      const staged = propagation.extract(ROOT_CONTEXT, headers);
      return context.with(staged, () => start(topic, message, client));
    };
  }
}

/** What `startTelemetry` started: flush and stop it. */
export interface Telemetry {
  shutdown(): Promise<void>;
}

/** OTEL_TRACES_SAMPLER (and _ARG), as the specification names them; undefined: the SDK's default, parent-based always on. */
function samplerFromEnv(): Sampler | undefined {
  const name = getStringFromEnv('OTEL_TRACES_SAMPLER');
  if (name === undefined) return undefined;
  const ratio = () => {
    const value = getNumberFromEnv('OTEL_TRACES_SAMPLER_ARG');
    if (value !== undefined && value >= 0 && value <= 1) return value;
    diag.error(`OTEL_TRACES_SAMPLER_ARG is blank or outside [0, 1] (${String(value)}): sampling everything`);
    return 1;
  };
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio());
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) });
    default:
      diag.error(`unknown OTEL_TRACES_SAMPLER value "${name}": using the default`);
      return undefined;
  }
}

/** OTEL_PROPAGATORS (`tracecontext`, `baggage`, `none`); W3C trace context and baggage by default. */
function propagatorFromEnv(): TextMapPropagator | undefined {
  const names = [...new Set(getStringListFromEnv('OTEL_PROPAGATORS') ?? ['tracecontext', 'baggage'])];
  if (names.includes('none')) return undefined;
  const propagators = names.flatMap((name): TextMapPropagator[] => {
    if (name === 'tracecontext') return [new W3CTraceContextPropagator()];
    if (name === 'baggage') return [new W3CBaggagePropagator()];
    diag.warn(`OTEL_PROPAGATORS: "${name}" is not available here (tracecontext, baggage, none)`);
    return [];
  });
  return propagators.length === 1 ? propagators[0] : new CompositePropagator({ propagators });
}

/** OTEL_NODE_RESOURCE_DETECTORS (`host`, `os`, `process`, `serviceinstance`, `env`, `all`, `none`); all of them by default. */
function resourceDetectorsFromEnv(): ResourceDetector[] {
  const known: Record<string, ResourceDetector[]> = {
    host: [hostDetector],
    os: [osDetector],
    serviceinstance: [serviceInstanceIdDetector],
    process: [processDetector],
    env: [resourceAttributesEnvDetector, serviceNameEnvDetector],
  };
  const names = getStringListFromEnv('OTEL_NODE_RESOURCE_DETECTORS') ?? ['all'];
  if (names.includes('all')) return Object.values(known).flat();
  if (names.includes('none')) return [];
  return names.flatMap((name) => {
    const detectors = known[name];
    if (!detectors) diag.warn(`OTEL_NODE_RESOURCE_DETECTORS: unknown detector "${name}"`);
    return detectors ?? [];
  });
}

/** A positive number from the environment, else undefined (the processor's default). */
function positiveFromEnv(name: string): number | undefined {
  const value = getNumberFromEnv(name);
  return value !== undefined && value > 0 ? value : undefined;
}

/**
 * Starts OpenTelemetry: the instrumentations, the async-local-storage context
 * manager, the W3C propagators, a tracer provider and, when METRICS_PORT is set,
 * a meter provider read by Prometheus. Spans go to OTLP (http/protobuf) only
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set; tests pass their own processors.
 *
 * What `NodeSDK` (@opentelemetry/sdk-node) did with our options, composed from
 * the SDK's packages: `NodeSDK` loads every OTLP exporter (traces, metrics and
 * logs, over gRPC, HTTP and protobuf), Zipkin and B3 whether configured or not,
 * about 11 MiB of every process (BENCHMARKS.md, "Memory again"). The same
 * OTEL_* variables are read: OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,
 * OTEL_TRACES_SAMPLER(_ARG), OTEL_PROPAGATORS, OTEL_NODE_RESOURCE_DETECTORS,
 * OTEL_LOG_LEVEL, OTEL_SPAN_*_LIMIT, OTEL_BSP_*; OTel logs stay off (logs are
 * pino's, on stdout).
 */
export function startTelemetry(options: { serviceName: string; spanProcessors?: SpanProcessor[] }): Telemetry {
  // As NodeSDK did: nothing registered at all (the preload, register.ts, does not even call this then).
  if (getBooleanFromEnv('OTEL_SDK_DISABLED')) return { shutdown: () => Promise.resolve() };
  const logLevel = getStringFromEnv('OTEL_LOG_LEVEL');
  if (logLevel !== undefined) diag.setLogger(new DiagConsoleLogger(), { logLevel: diagLogLevelFromString(logLevel) });

  const spanProcessors = [...(options.spanProcessors ?? [])];
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
    spanProcessors.push(
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        maxQueueSize: positiveFromEnv('OTEL_BSP_MAX_QUEUE_SIZE'),
        scheduledDelayMillis: positiveFromEnv('OTEL_BSP_SCHEDULE_DELAY'),
        exportTimeoutMillis: positiveFromEnv('OTEL_BSP_EXPORT_TIMEOUT'),
        maxExportBatchSize: positiveFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
      }),
    );
  }
  // With nowhere to send spans, record none, but keep a tracer provider: spans
  // still get ids, so context propagates and logs carry trace ids, at no cost.
  // OTEL_TRACES_SAMPLER overrides.
  const recordNothing = spanProcessors.length === 0 && !process.env.OTEL_TRACES_SAMPLER;

  const installed = instrumentations();
  registerInstrumentations({ instrumentations: installed });
  const contextManager = new AsyncLocalStorageContextManager();
  contextManager.enable();
  context.setGlobalContextManager(contextManager);
  const propagator = propagatorFromEnv();
  if (propagator) propagation.setGlobalPropagator(propagator);

  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES come through the env detector; the name given here wins over theirs.
  const resource = defaultResource()
    .merge(detectResources({ detectors: resourceDetectorsFromEnv() }))
    .merge(resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME ?? options.serviceName }));

  // Metrics are pulled by Prometheus from :$METRICS_PORT/metrics when it is
  // set (the chart sets 9464 everywhere), otherwise off.
  const readers = metricReaders();
  const meterProvider = readers.length > 0 ? new SdkMeterProvider({ resource, readers }) : undefined;
  if (meterProvider) {
    metrics.setGlobalMeterProvider(meterProvider);
    for (const instrumentation of installed) instrumentation.setMeterProvider(meterProvider);
  }
  // HTTP is measured by our own RED histogram (spinroom_rest_request_duration_seconds,
  // by route). The instrumentation's own duration histograms recorded every
  // request a second time, with more attributes: about 5% of a REST read's CPU
  // with METRICS_PORT set (BENCHMARKS.md, run 6), for series nothing reads.
  for (const instrumentation of installed) {
    if (instrumentation instanceof HttpInstrumentation) instrumentation.setMeterProvider(NO_METRICS);
  }

  const tracerProvider = new TracerProvider({
    resource,
    spanProcessors: recordNothing ? [new NoopSpanProcessor()] : spanProcessors,
    sampler: recordNothing ? new AlwaysOffSampler() : samplerFromEnv(),
    spanLimits: {
      attributeCountLimit: getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT') ?? getNumberFromEnv('OTEL_ATTRIBUTE_COUNT_LIMIT'),
      attributeValueLengthLimit:
        getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT') ?? getNumberFromEnv('OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT'),
      eventCountLimit: getNumberFromEnv('OTEL_SPAN_EVENT_COUNT_LIMIT'),
      linkCountLimit: getNumberFromEnv('OTEL_SPAN_LINK_COUNT_LIMIT'),
      attributePerEventCountLimit: getNumberFromEnv('OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT'),
      attributePerLinkCountLimit: getNumberFromEnv('OTEL_LINK_ATTRIBUTE_COUNT_LIMIT'),
    },
  });
  trace.setGlobalTracerProvider(tracerProvider);

  return {
    shutdown: async () => {
      await Promise.all([tracerProvider.shutdown(), meterProvider?.shutdown()]);
    },
  };
}
