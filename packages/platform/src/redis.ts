import { Redis } from 'ioredis';

export { Redis };

/** One ioredis connection; keys are named `<service>:<entity>:<id>`. */
export function createRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 3, lazyConnect: false, enableAutoPipelining: true });
}
