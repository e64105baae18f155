import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { generateSigningKeyPem } from '@spinroom/platform';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const localDir = process.env.SPINROOM_LOCAL_DIR ?? join(repoRoot, '.local');

export interface Infra {
  PG_ADMIN_URL: string;
  REDIS_URL: string;
  KAFKA_BROKERS: string;
  /** Mailpit, the mail catcher: where services send mail, and its inbox (web and REST API). */
  SMTP_URL: string;
  MAILPIT_URL: string;
}

/** Starts (or finds running) PostgreSQL, Redis, Kafka and Mailpit for a profile through deploy/local/up.sh. */
export function infraUp(profile: 'dev' | 'test'): Infra {
  execFileSync('bash', [join(repoRoot, 'deploy/local/up.sh'), profile], { stdio: 'inherit' });
  return readInfraEnv(profile);
}

export function infraDown(profile: 'dev' | 'test'): void {
  execFileSync('bash', [join(repoRoot, 'deploy/local/down.sh'), profile], { stdio: 'inherit' });
}

export function readInfraEnv(profile: 'dev' | 'test'): Infra {
  const text = readFileSync(join(localDir, profile, 'infra.env'), 'utf8');
  const env = Object.fromEntries(
    text
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return env as unknown as Infra;
}

/** A service's own database on the profile's server. */
export function databaseUrl(infra: Infra, database: string): string {
  const url = new URL(infra.PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A random secret (HMAC keys and the like), made once per profile and kept in `.local/<profile>/<name>`. */
export function ensureSecret(profile: 'dev' | 'test', name: string): string {
  const path = join(localDir, profile, name);
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, randomBytes(32).toString('base64url'), { mode: 0o600 });
  }
  return readFileSync(path, 'utf8').trim();
}

/** The RS256 key the user service signs with, made once per profile (3072-bit RSA). */
export function ensureSigningKey(profile: 'dev' | 'test'): { path: string; pem: string } {
  const path = join(localDir, profile, 'jwt-private.pem');
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, generateSigningKeyPem(), { mode: 0o600 });
  }
  return { path, pem: readFileSync(path, 'utf8') };
}
