import { Writable } from 'node:stream';
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logging.js';

describe('structured logging', () => {
  it('writes JSON lines that carry the active trace and span ids', () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk, _encoding, done) => {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger('test', { level: 'info' }, sink);
    const spanContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };
    context.with(trace.setSpanContext(context.active(), spanContext), () => logger.info({ userUuid: 'u' }, 'hello'));
    logger.info('outside');
    const [inside, outside] = lines.map((line) => JSON.parse(line));
    expect(inside).toMatchObject({
      level: 'info',
      service: 'test',
      msg: 'hello',
      userUuid: 'u',
      trace_id: spanContext.traceId,
      span_id: spanContext.spanId,
    });
    expect(outside.trace_id).toBeUndefined();
  });
});
