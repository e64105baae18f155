import { context } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';

/**
 * Names the current HTTP request's server span after its route pattern
 * (`GET /api/room-service/rooms/:slug`, attribute `http.route`), as the
 * Express instrumentation would. That instrumentation is not used: it wraps
 * every middleware layer of every request and cost a tenth of the BFF's CPU
 * on the hottest reads (BENCHMARKS.md), to learn what the routes know already.
 */
export function nameHttpRoute(route: string): void {
  const metadata = getRPCMetadata(context.active());
  if (metadata?.type === RPCType.HTTP) metadata.route = route;
}
