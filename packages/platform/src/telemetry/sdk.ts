import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { AlwaysOffSampler, BatchSpanProcessor, NoopSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace';

/** The instrumentations every Spinroom process runs with. */
export function instrumentations() {
  return [
    // The room feed's URL carries the access token: never into a span.
    new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => req.url === '/healthz' || req.url === '/readyz' || (req.url ?? '').startsWith('/primus') }),
    new ExpressInstrumentation(),
    new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
    new PgInstrumentation({ requireParentSpan: true }),
    new IORedisInstrumentation({ requireParentSpan: true }),
    new KafkaJsInstrumentation(),
  ];
}

/**
 * Starts the OpenTelemetry Node SDK. Spans go to OTLP (http/protobuf) only
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set; tests pass their own processors.
 */
export function startTelemetry(options: { serviceName: string; spanProcessors?: SpanProcessor[] }): NodeSDK {
  const spanProcessors = [...(options.spanProcessors ?? [])];
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
    spanProcessors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter() }));
  }
  // With nowhere to send spans, record none, but keep a tracer provider: spans
  // still get ids, so context propagates and logs carry trace ids, at no cost.
  // OTEL_TRACES_SAMPLER overrides.
  const recordNothing = spanProcessors.length === 0 && !process.env.OTEL_TRACES_SAMPLER;
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? options.serviceName,
    spanProcessors: recordNothing ? [new NoopSpanProcessor()] : spanProcessors,
    ...(recordNothing ? { sampler: new AlwaysOffSampler() } : {}),
    // Metrics and OTel logs are off until they have somewhere to go (the SDK's
    // defaults would push OTLP to localhost:4318): logs are pino's, on stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: instrumentations(),
  });
  sdk.start();
  return sdk;
}
