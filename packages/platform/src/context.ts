import { AsyncLocalStorage } from 'node:async_hooks';
import type { Caller } from './auth.js';

/**
 * What travels with one incoming request through every await: who is calling
 * (with the token to pass on to other services). Trace context is OpenTelemetry's own.
 */
export interface RequestContext {
  caller?: Caller;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}
