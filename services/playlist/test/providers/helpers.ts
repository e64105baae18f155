import { AppError, createLogger } from '@spinroom/platform';
import { expect } from 'vitest';
import { createProviders } from '../../src/providers/index.js';

/** A closed local port: any base URL a test does not point at a stand-in goes nowhere. */
export const NOWHERE = 'http://127.0.0.1:9';

/** Every provider base URL pointed away from the internet; tests add their stand-in's URL and credentials. */
const LOCAL_ONLY: Record<string, string> = {
  SPOTIFY_API_URL: NOWHERE,
  SPOTIFY_ACCOUNTS_URL: NOWHERE,
  APPLE_MUSIC_API_URL: NOWHERE,
  SOUNDCLOUD_API_URL: NOWHERE,
  SOUNDCLOUD_AUTH_URL: NOWHERE,
  YOUTUBE_API_URL: NOWHERE,
  SEVEN_DIGITAL_API_URL: NOWHERE,
  SEVEN_DIGITAL_PREVIEWS_URL: NOWHERE,
  SEVEN_DIGITAL_STREAM_URL: NOWHERE,
  CYANITE_API_URL: NOWHERE,
  MUSIC_PROVIDER_TIMEOUT_MS: '400',
};

/** A clock the tests move forward to expire cached tokens. */
export class TestClock {
  ms = Date.UTC(2026, 10, 21, 12, 0, 0);
  readonly now = () => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

/** Refuses anything but loopback, so a wrong base URL fails the test instead of reaching the internet. */
const loopbackFetch: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : input.toString());
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') {
    return Promise.reject(new Error(`test tried to reach ${url.origin}`));
  }
  return fetch(input, init);
};

/** The registry built from a test environment (loopback only, a test clock, a silent logger). */
export function testProviders(env: Record<string, string>, clock = new TestClock()) {
  const providers = createProviders(
    { ...LOCAL_ONLY, ...env },
    {
      logger: createLogger('providers-test', { level: 'silent' }),
      now: clock.now,
      fetch: loopbackFetch,
    },
  );
  return { providers, clock };
}

/** Awaits a failure and checks it is the AppError with this status, its message matching. */
export async function expectAppError(promise: Promise<unknown>, status: number, message: RegExp | string): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  const appError = error as AppError;
  expect(appError.status).toBe(status);
  expect(appError.message).toMatch(message);
  // Never the stand-in's raw error text, whatever went wrong there.
  expect(appError.message).not.toMatch(/stand-in|secret internal/i);
  return appError;
}
