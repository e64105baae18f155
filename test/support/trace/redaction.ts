// The trace redaction test's child (preloaded with preload.ts, as trace.test.ts's
// scenario is): a server named by a route as the BFF's are, requests carrying a
// phone number and an email in paths and queries as a client and a provider
// call would, Redis keys holding them; prints every finished span as one JSON line.
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, trace } from '@opentelemetry/api';
import type { Telemetry } from '../../../packages/platform/src/telemetry/sdk.js';
import type { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { testInfra } from '@spinroom/platform/testing';
import { Redis } from 'ioredis';
import { nameHttpRoute } from '../../../packages/platform/src/telemetry/http-route.js';

const { exporter, sdk } = (globalThis as unknown as { __spinroomTrace: { exporter: InMemorySpanExporter; sdk: Telemetry } })
  .__spinroomTrace;

const ROUTE = '/api/user-service/phone-validation/validate/:phone';
const server = createServer((req, res) => {
  if (req.url?.startsWith('/api/user-service/phone-validation/validate/')) nameHttpRoute(ROUTE);
  res.end('{}');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const fetchOnce = (url: string) =>
  new Promise<void>((resolve, reject) => get(url, (res) => res.resume().once('end', resolve)).once('error', reject));

await fetchOnce(`${base}/api/user-service/phone-validation/validate/%2B12025550143`);
await fetchOnce(`${base}/v2/PhoneNumbers/+12025550143?Fields=line_type_intelligence`);
await fetchOnce(`${base}/api/user-service/auth/magic-link?email=alice.trace%40example.com`);

const redis = new Redis(testInfra().redisUrl);
await trace.getTracer('redaction').startActiveSpan('limits', async (span) => {
  await redis.incr('limit:phone-codes:+12025550143');
  await redis.set('user:login-failures:alice.trace@example.com', '1', 'EX', 5);
  await redis.eval("return redis.call('GET', KEYS[1])", 1, 'user:login-failures:alice.trace@example.com');
  span.end();
});
redis.disconnect();
await new Promise((resolve) => server.close(resolve));
// A client span ends on its response's own events, which a loaded machine may run after ours: wait for
// the three (at most 5 s; the test fails on what is missing then).
const outgoing = () => exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.CLIENT && s.attributes['url.full'] !== undefined);
for (const until = Date.now() + 5000; outgoing().length < 3 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
// Before the shutdown, which empties the in-memory exporter.
const spans = exporter.getFinishedSpans().map((s) => ({ name: s.name, kind: s.kind, attributes: s.attributes }));
process.stdout.write(`SPANS ${JSON.stringify(spans)}\n`);
await sdk.shutdown();
