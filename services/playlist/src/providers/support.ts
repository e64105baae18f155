import { AppError, badRequest, type Logger } from '@spinroom/platform';
import type { MusicProvider } from '../domain/song.js';
import { providerFailed, providerOff, type MusicCatalogueProvider, type ProviderTrack, type SearchOptions } from './provider.js';

/** What every provider client is given besides its own config. */
export interface ProviderDeps {
  logger: Logger;
  /** Per HTTP attempt (AbortSignal.timeout), body included. */
  timeoutMs: number;
  fetch: typeof fetch;
  /** Milliseconds since the epoch; tests move it to expire cached tokens. */
  now: () => number;
}

/** An access token and when it stops working (ms since the epoch). */
export interface AccessToken {
  value: string;
  expiresAt: number;
  /** OAuth refresh token, where the provider issues one (SoundCloud). */
  refreshToken?: string;
}

/**
 * Holds one provider token until shortly before it expires (a tenth of its
 * life, at most 60 s early). Calls that need a token while one is being fetched
 * wait for that fetch instead of starting another.
 */
export class TokenCache {
  private current?: AccessToken;
  private obtainedAt = 0;
  private pending?: Promise<AccessToken>;

  constructor(
    private readonly issue: (previous: AccessToken | undefined) => Promise<AccessToken>,
    private readonly now: () => number,
  ) {}

  async get(): Promise<string> {
    const token = this.current;
    if (token) {
      const early = Math.min(60_000, (token.expiresAt - this.obtainedAt) / 10);
      if (this.now() < token.expiresAt - early) return token.value;
    }
    return (await this.renew()).value;
  }

  /** A new token after the provider refused `rejected` (a caller that raced us may already have one). */
  async refresh(rejected: string): Promise<string> {
    if (this.current && this.current.value !== rejected) return this.current.value;
    return (await this.renew()).value;
  }

  private renew(): Promise<AccessToken> {
    this.pending ??= this.issue(this.current)
      .then((token) => {
        this.current = token;
        this.obtainedAt = this.now();
        return token;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }
}

/** How a provider's API calls carry a token, and which answers mean "refresh it and try once more". */
export interface TokenAuth {
  tokens: TokenCache;
  headers(token: string): Record<string, string>;
  /** Spec 002: 401, or 403 for SoundCloud. */
  retryOn: readonly number[];
}

export interface RequestOptions {
  /** Logged (with the status, never returned) when the call fails, e.g. 'Get Apple info by ID failed'. */
  failure: string;
  auth?: TokenAuth;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  /** Errors to throw as they are for these answer statuses (e.g. a user's token refused: 401), instead of the 502. */
  onStatus?: Record<number, AppError>;
}

/**
 * JSON over Node's fetch for one provider: a timeout on every attempt, the
 * token from `auth` with one retry on a refused token, and every failure turned
 * into the 502 that names the provider (the details go to the log only).
 */
export class ProviderHttp {
  constructor(
    private readonly label: string,
    private readonly deps: ProviderDeps,
  ) {}

  /** Logs why a call failed and gives the 502 to throw (for answers that are 2xx but unusable). */
  failed(failure: string, details: Record<string, unknown> = {}): AppError {
    this.deps.logger.warn({ provider: this.label, ...details }, failure);
    return providerFailed(this.label);
  }

  /** The answer's JSON; any non-2xx answer is a failure. */
  async get<T>(url: URL, options: RequestOptions): Promise<T> {
    return (await this.request<T>(url, options, false)) as T;
  }

  /** The answer's JSON, or null when the provider answers 404. */
  async find<T>(url: URL, options: RequestOptions): Promise<T | null> {
    return this.request<T>(url, options, true);
  }

  private async request<T>(url: URL, options: RequestOptions, notFoundIsNull: boolean): Promise<T | null> {
    const { auth } = options;
    let token = auth ? await this.token(() => auth.tokens.get(), options.failure) : undefined;
    let response = await this.send(url, options, token);
    if (auth && token !== undefined && auth.retryOn.includes(response.status)) {
      await response.body?.cancel();
      const refused = token;
      token = await this.token(() => auth.tokens.refresh(refused), options.failure);
      response = await this.send(url, options, token);
    }
    const mapped = options.onStatus?.[response.status];
    if (mapped) {
      await response.body?.cancel();
      throw mapped;
    }
    if (response.status === 404 && notFoundIsNull) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      const body = await response.text().catch(() => '');
      this.deps.logger.warn({ provider: this.label, status: response.status, body: body.slice(0, 300) }, options.failure);
      throw providerFailed(this.label);
    }
    try {
      return (await response.json()) as T;
    } catch (error) {
      this.deps.logger.warn({ provider: this.label, err: describe(error) }, options.failure);
      throw providerFailed(this.label);
    }
  }

  /** A token, or the 502 when getting one failed in a way the token request itself did not report. */
  private async token(get: () => Promise<string>, failure: string): Promise<string> {
    try {
      return await get();
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw this.failed(failure, { err: describe(error) });
    }
  }

  private async send(url: URL, options: RequestOptions, token: string | undefined): Promise<Response> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...options.headers,
      ...(token !== undefined ? options.auth?.headers(token) : {}),
    };
    // A caller's credential travels in a header, which carries bytes, not text: refused as the
    // caller's mistake here, where fetch would fail with "Cannot convert argument to a ByteString".
    if (Object.values(headers).some((value) => !PRINTABLE_ASCII.test(value))) {
      throw badRequest(`The credentials for ${this.label} must be printable ASCII`);
    }
    try {
      return await this.deps.fetch(url, {
        method: options.method ?? 'GET',
        headers,
        body: options.body,
        signal: AbortSignal.timeout(this.deps.timeoutMs),
        redirect: 'follow',
      });
    } catch (error) {
      this.deps.logger.warn({ provider: this.label, err: describe(error) }, options.failure);
      throw providerFailed(this.label);
    }
  }
}

const PRINTABLE_ASCII = /^[\x20-\x7E]*$/;

function describe(error: unknown): string {
  if (error instanceof Error) return error.name === 'TimeoutError' ? 'timed out' : `${error.name}: ${error.message}`;
  return String(error);
}

/** What the six adapters share: their names, the off switch, paging and the empty-query rule. */
export abstract class CatalogueProvider implements MusicCatalogueProvider {
  abstract readonly name: MusicProvider;
  abstract readonly label: string;
  abstract readonly enabled: boolean;
  abstract readonly pageSize: number;
  /** The most results one request may ask for. */
  protected abstract readonly maxPageSize: number;

  abstract search(query: string, options?: SearchOptions): Promise<ProviderTrack[]>;
  abstract track(providerSongId: string, options?: { country?: string }): Promise<ProviderTrack | null>;

  /** Throws the 503 when the provider is off. */
  protected ensureOn(): void {
    if (!this.enabled) throw providerOff(this.label);
  }

  protected page(options: SearchOptions = {}): { limit: number; offset: number } {
    const wanted = Number.isFinite(options.limit) ? Math.trunc(options.limit as number) : this.pageSize;
    const offset = Number.isFinite(options.offset) ? Math.max(0, Math.trunc(options.offset as number)) : 0;
    return { limit: Math.min(Math.max(wanted, 1), this.maxPageSize), offset };
  }
}

/** `base` (with or without a path prefix or trailing slash) joined with `path` and query parameters. */
export function endpoint(base: string, path: string, query: Record<string, string | number | undefined> = {}): URL {
  const url = new URL(base.replace(/\/+$/, '') + path);
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  }
  return url;
}

/** The smallest artwork at least this wide (spec 002's default artwork size is 256). */
export const ARTWORK_SIZE = 256;

/** Milliseconds to whole seconds. */
export function seconds(milliseconds: number | null | undefined): number {
  return typeof milliseconds === 'number' && Number.isFinite(milliseconds) ? Math.round(milliseconds / 1000) : 0;
}

/** An ISRC, upper-cased, or undefined when there is none. */
export function isrcOf(value: string | null | undefined): string | undefined {
  const isrc = value?.replace(/[\s-]/g, '').toUpperCase();
  return isrc ? isrc : undefined;
}

/** The year of a date ("2019", "2019-08-22", "2019-08-22T00:00:00Z", "Thu Aug 22 2019 ..."), or of a year number. */
export function yearOf(value: string | number | null | undefined): number | undefined {
  const plausible = (year: number) => (Number.isInteger(year) && year > 999 && year < 10_000 ? year : undefined);
  if (typeof value === 'number') return plausible(value);
  const text = value?.trim();
  if (!text) return undefined;
  const leading = text.match(/^(\d{4})(?:\D|$)/);
  if (leading) return plausible(Number(leading[1]));
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : plausible(new Date(parsed).getUTCFullYear());
}

/** `{ [provider]: value }`, or undefined when there is no value. */
export function keyed(provider: MusicProvider, value: string | null | undefined): Record<string, string> | undefined {
  return value ? { [provider]: value } : undefined;
}

/** The smallest image at least `size` wide, else the widest there is. */
export function pickImage(images: ReadonlyArray<{ url?: string | null; width?: number | null }>, size = ARTWORK_SIZE): string | undefined {
  const usable = images.filter((image): image is { url: string; width?: number | null } => !!image.url);
  const bySize = [...usable].sort((a, b) => (a.width ?? 0) - (b.width ?? 0));
  return (bySize.find((image) => (image.width ?? 0) >= size) ?? bySize.at(-1))?.url;
}

/** Drops the fields left undefined, so a track carries only what the provider said. */
export function compact(track: ProviderTrack): ProviderTrack {
  return Object.fromEntries(Object.entries(track).filter(([, value]) => value !== undefined)) as unknown as ProviderTrack;
}

/** Basic authorization for client credentials. */
export function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

/** An expiry time from an OAuth `expires_in` (seconds; an hour when the provider leaves it out). */
export function expiresAt(now: number, expiresIn: unknown): number {
  const secondsLeft = typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : 3600;
  return now + secondsLeft * 1000;
}
