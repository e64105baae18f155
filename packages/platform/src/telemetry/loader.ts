// The ESM loader hook the instrumentations need (import-in-the-middle, the
// copy @opentelemetry/instrumentation's Hook()s register with), on the
// asynchronous loader (module.register), which runs on a thread of its own (a
// second V8 isolate, about 14 MiB resident). Not Node 24's in-thread hooks
// (module.registerHooks, which would save that): with them an ESM named import
// of a builtin (`import { get } from 'node:http'`) kept the unpatched function,
// so outgoing requests made through it had no span (test/e2e/trace-redaction
// failed on Node 24.21).
import { register } from 'node:module';

/** Makes every later import of `include` (package names, node: builtins) patchable by the instrumentations. */
export async function registerLoaderHooks(include: string[]): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the asynchronous loader is the one that patches builtins' named exports
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include } });
}
