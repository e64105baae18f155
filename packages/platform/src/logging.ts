import { trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/**
 * JSON logs to stdout; every line logged inside a span carries its trace and span ids.
 * The level comes from the process's config (`options.level`: the service kit and the
 * BFF pass LOG_LEVEL); the environment is read only by loggers made at import time.
 */
export function createLogger(name: string, options: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const settings: LoggerOptions = {
    name,
    level: process.env.LOG_LEVEL ?? 'info',
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId, traceFlags } = span.spanContext();
      return { trace_id: traceId, span_id: spanId, trace_flags: traceFlags };
    },
    ...options,
  };
  return destination ? pino(settings, destination) : pino(settings);
}
