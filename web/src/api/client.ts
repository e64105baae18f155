// The one client of the BFF: REST paths under /api, the chat API under /chat.
// Every call carries the session's token as a bearer; errors become ApiError.
import { session } from '../session/session';
import { ApiError, codeOf, userMessageFor } from './errors';

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | string[]>;
  headers?: Record<string, string>;
  /** Leave the bearer token out (sign-up, login, guest). */
  anonymous?: boolean;
  signal?: AbortSignal;
  /** Finish the request even if the page goes away (a play's total when the tab closes). */
  keepalive?: boolean;
}

export function queryString(query: RequestOptions['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, v);
    else params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const token = session.get().token;
  if (token && !options.anonymous) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let res: Response;
  try {
    res = await fetch(`${path}${queryString(options.query)}`, {
      method,
      headers,
      body,
      signal: options.signal,
      keepalive: options.keepalive,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, userMessageFor(0, undefined));
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (!res.ok) {
    throw new ApiError(res.status, userMessageFor(res.status, parsed), codeOf(parsed));
  }
  return parsed as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('DELETE', path, { ...options, body }),
};

export const USER = '/api/user-service';
export const ROOM = '/api/room-service';
export const PLAYLIST = '/api/playlist-service';
export const UPLOAD = '/api/upload-service';
export const CHAT = '/chat/v3.0';
