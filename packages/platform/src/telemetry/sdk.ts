import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { AlwaysOffSampler, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace';

/** The instrumentations every Spinroom process runs with. */
export function instrumentations() {
  return [
    new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => req.url === '/healthz' || req.url === '/readyz' }),
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
  // With nowhere to send spans, record none: context (and the trace ids in
  // logs) still propagates, but spans cost nothing. OTEL_TRACES_SAMPLER overrides.
  const recordNothing = spanProcessors.length === 0 && !process.env.OTEL_TRACES_SAMPLER;
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? options.serviceName,
    spanProcessors,
    instrumentations: instrumentations(),
    ...(recordNothing ? { sampler: new AlwaysOffSampler() } : {}),
  });
  sdk.start();
  return sdk;
}
