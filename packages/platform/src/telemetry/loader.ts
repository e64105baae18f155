// The ESM loader hook the instrumentations need (import-in-the-middle, the
// copy @opentelemetry/instrumentation's Hook()s register with): in-thread
// synchronous hooks (module.registerHooks) where Node supports them, else the
// asynchronous loader (module.register), which runs on a thread of its own: a
// second V8 isolate, about 14 MiB resident for as long as the process lives.
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

interface SyncHooks {
  supportsSyncHooks(): boolean;
  register(options: { include: string[] }): void;
}

/** Makes every later import of `include` (package names, node: builtins) patchable by the instrumentations. */
export async function registerLoaderHooks(include: string[]): Promise<void> {
  // import-in-the-middle as @opentelemetry/instrumentation resolves it: one copy for its Hook()s and this loader.
  const instrumentation = createRequire(import.meta.url).resolve('@opentelemetry/instrumentation');
  const hooks = pathToFileURL(createRequire(instrumentation).resolve('import-in-the-middle/register-hooks.mjs')).href;
  const sync = (await import(hooks)) as SyncHooks;
  if (sync.supportsSyncHooks()) {
    sync.register({ include });
    return;
  }
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the asynchronous loader needs module.register (Node before 24.11.1)
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include } });
}
