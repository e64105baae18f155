import { z } from 'zod';
import { limitSetting } from './limits.js';

/** Raised when the environment does not satisfy a service's config schema. */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads the environment once, at start-up, through a zod schema whose keys are
 * the variable names. Every wrong or missing variable is named in the error.
 */
export function loadConfig<S extends z.ZodRawShape>(shape: S, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const name = issue.path.join('.');
      const value = env[name];
      return value === undefined ? `${name}: is required (${issue.message})` : `${name}: ${issue.message}`;
    }),
  );
}

/** Loads config or ends the process with a message naming the bad variables. */
export function loadConfigOrExit<S extends z.ZodRawShape>(shape: S, env: NodeJS.ProcessEnv = process.env) {
  try {
    return loadConfig(shape, env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

/** Reusable pieces of config schemas, so every service spells them alike. */
export const env = {
  port: (fallback?: number) =>
    fallback === undefined ? z.coerce.number().int().min(0).max(65535) : z.coerce.number().int().min(0).max(65535).default(fallback),
  url: (protocols: string[]) =>
    z.string().refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol.replace(/:$/, ''));
        } catch {
          return false;
        }
      },
      `must be a ${protocols.join(' or ')} URL`,
    ),
  /** host:port of a peer gRPC service. */
  address: () => z.string().regex(/^[^:\s]+:\d{1,5}$/, 'must be host:port'),
  /** Comma-separated list. */
  list: () =>
    z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string()).min(1, 'must list at least one value')),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** A PEM block; `\n` escapes are accepted so it fits on one line of an env file. */
  pem: (kind: string) =>
    z
      .string()
      .transform((v) => v.replace(/\\n/g, '\n'))
      .refine((v) => v.includes(`-----BEGIN ${kind}-----`), `must be a PEM ${kind}`),
  /** A throttling limit, `<points>/<duration>[/<block>]` (e.g. `100/1h/1h`), as LimitSettings. */
  limit: limitSetting,
};
