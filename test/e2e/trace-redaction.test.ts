// Traces keep no phone number, email or one-time value: what the HTTP and
// Redis instrumentations record is redacted (packages/platform/src/telemetry/redact.ts).
// As in trace.test.ts, the instrumented code runs in a child Node process
// preloaded with the SDK and an in-memory span exporter.
import { spawn } from 'node:child_process';
import { SpanKind } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';

interface SpanJson {
  name: string;
  kind: SpanKind;
  attributes: Record<string, unknown>;
}

async function redactionSpans(): Promise<SpanJson[]> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './test/support/trace/preload.ts', 'test/support/trace/redaction.ts'],
    {
      cwd: new URL('../..', import.meta.url).pathname,
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (err += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const line = out.split('\n').find((l) => l.startsWith('SPANS '));
  if (code !== 0 || !line) throw new Error(`the traced process failed (exit ${code}):\n${err.slice(-4000)}`);
  return JSON.parse(line.slice('SPANS '.length)) as SpanJson[];
}

describe('trace redaction', () => {
  it('records routes, hosts and key prefixes, never the phone numbers and emails in paths, queries and Redis keys', async () => {
    const spans = await redactionSpans();
    const servers = spans.filter((s) => s.kind === SpanKind.SERVER);
    const clients = spans.filter((s) => s.kind === SpanKind.CLIENT && s.attributes['url.full'] !== undefined);
    const statements = spans.map((s) => s.attributes['db.query.text'] ?? s.attributes['db.statement']).filter(Boolean);
    expect(servers).toHaveLength(3);
    expect(clients).toHaveLength(3);
    expect(statements).toHaveLength(3);

    for (const secret of ['2025550143', 'alice.trace', 'example.com']) {
      expect(JSON.stringify(spans), `"${secret}" in a span`).not.toContain(secret);
    }
    const validate = servers.find((s) => s.attributes['http.route'] !== undefined);
    expect(validate).toMatchObject({
      name: 'GET /api/user-service/phone-validation/validate/:phone',
      attributes: { 'url.path': '/api/user-service/phone-validation/validate/:phone' },
    });
    expect(servers.map((s) => s.attributes['url.path'])).toContain('/v2/PhoneNumbers/+*');
    expect(servers.map((s) => s.attributes['url.query'])).toContain('email=REDACTED');
    expect(clients.map((s) => String(s.attributes['url.full']).replace(/:\d+\//, ':PORT/'))).toEqual([
      'http://127.0.0.1:PORT/api/user-service/phone-validation/validate/%2B*',
      'http://127.0.0.1:PORT/v2/PhoneNumbers/+*?Fields=REDACTED',
      'http://127.0.0.1:PORT/api/user-service/auth/magic-link?email=REDACTED',
    ]);
    expect(statements).toEqual(['incr limit:phone-codes:*', 'set user:login-failures:*', 'eval']);
  }, 60_000);
});
