import { createHash } from 'node:crypto';
import { Redis, type ChainableCommander } from 'ioredis';

export { Redis };
export type { ChainableCommander };

/** One ioredis connection; keys are named `<service>:<entity>:<id>`. */
export function createRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 3, lazyConnect: false, enableAutoPipelining: true });
}

type ScriptArg = string | number;

/** A Lua script of a Redis connection's, run by `run` or queued in a pipeline or transaction by `queue`. */
export interface RedisScript {
  run(keys: readonly string[], args: readonly ScriptArg[]): Promise<unknown>;
  /** Queues it in `batch`, a pipeline or transaction made from the same connection (after this script was made). */
  queue(batch: ChainableCommander, keys: readonly string[], args: readonly ScriptArg[]): ChainableCommander;
}

/**
 * `lua` as a command of `redis` (ioredis's `defineCommand`): sent by its SHA1 (EVALSHA), its text only on a
 * connection's first use of it and when Redis answers NOSCRIPT (a restart or a SCRIPT FLUSH), instead of the whole
 * text with every call (EVAL), which Redis would also hash again each time. Made once per connection and script.
 */
export function redisScript(redis: Redis, lua: string): RedisScript {
  const name = `lua${createHash('sha1').update(lua).digest('hex')}`;
  if (!Object.hasOwn(redis.scriptsSet, name)) redis.defineCommand(name, { lua });
  // The number of keys goes first in each call (the command is defined without one).
  const call = (target: Redis | ChainableCommander, keys: readonly string[], args: readonly ScriptArg[]): unknown => {
    const command = (target as unknown as Record<string, ((...a: ScriptArg[]) => unknown) | undefined>)[name];
    if (!command) throw new Error('a script is queued in a pipeline made from its own connection, after the script');
    return command.call(target, keys.length, ...keys, ...args);
  };
  return {
    run: (keys, args) => call(redis, keys, args) as Promise<unknown>,
    queue: (batch, keys, args) => call(batch, keys, args) as ChainableCommander,
  };
}
