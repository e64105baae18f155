import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, env, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  const shape = {
    DATABASE_URL: env.url(['postgres']),
    GRPC_PORT: env.port(50051),
    KAFKA_BROKERS: env.list(),
    LOG_LEVEL: env.logLevel(),
    FLAG: z.enum(['on', 'off']).default('off'),
  };

  it('parses and applies defaults', () => {
    const config = loadConfig(shape, { DATABASE_URL: 'postgres://u:p@h:1/db', KAFKA_BROKERS: 'a:1, b:2' });
    expect(config).toEqual({
      DATABASE_URL: 'postgres://u:p@h:1/db',
      GRPC_PORT: 50051,
      KAFKA_BROKERS: ['a:1', 'b:2'],
      LOG_LEVEL: 'info',
      FLAG: 'off',
    });
  });

  it('names every wrong or missing variable', () => {
    try {
      loadConfig(shape, { DATABASE_URL: 'mysql://x', GRPC_PORT: '99999' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain('DATABASE_URL: must be a postgres URL');
      expect(message).toContain('GRPC_PORT:');
      expect(message).toContain('KAFKA_BROKERS: is required');
    }
  });

  it('accepts a PEM written on one line with \\n escapes', () => {
    const pem = env.pem('PRIVATE KEY').parse('-----BEGIN PRIVATE KEY-----\\nabc\\n-----END PRIVATE KEY-----');
    expect(pem).toBe('-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----');
  });
});
