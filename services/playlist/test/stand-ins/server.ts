import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a stand-in saw it. */
export interface StandInRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What a route answers: JSON, text, or nothing. */
export interface StandInReply {
  status?: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

export interface Route {
  method: 'GET' | 'POST';
  /** Matched against the path (no query). */
  path: RegExp;
  /** Token endpoints: never faulted or stalled, counted apart. */
  token?: boolean;
  handle(request: StandInRequest, match: RegExpMatchArray): StandInReply | Promise<StandInReply>;
}

export interface StandInOptions {
  routes: Route[];
  /** The provider's own error body for a status (used for injected faults and unknown paths). */
  errorBody(status: number, message: string): StandInReply;
}

/**
 * A local HTTP server (port 0, loopback) that a provider stand-in builds on:
 * routing, a record of every request, and switches that make the next API
 * calls fail with a status or stall past the client's timeout.
 */
export class StandIn {
  readonly requests: StandInRequest[] = [];
  private faults: number[] = [];
  private stalls: number[] = [];

  private constructor(
    readonly url: string,
    private readonly stop: () => Promise<void>,
  ) {}

  static async start(options: StandInOptions): Promise<StandIn> {
    let standIn: StandIn | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://stand-in');
        const request: StandInRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        void standIn!.answer(request, options).then(
          (reply) => {
            if (res.destroyed) return;
            const headers: Record<string, string> = { ...reply.headers };
            let body = '';
            if (reply.json !== undefined) {
              headers['content-type'] ??= 'application/json; charset=utf-8';
              body = JSON.stringify(reply.json);
            } else if (reply.text !== undefined) {
              headers['content-type'] ??= 'text/plain; charset=utf-8';
              body = reply.text;
            }
            res.writeHead(reply.status ?? 200, headers).end(body);
          },
          () => res.destroy(),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    standIn = new StandIn(`http://127.0.0.1:${port}`, async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return standIn;
  }

  /** The next `times` API calls answer `status` with the provider's error body. */
  failNext(status = 500, times = 1): void {
    for (let i = 0; i < times; i++) this.faults.push(status);
  }

  /** The next API call waits this long before answering. */
  stallNext(ms: number): void {
    this.stalls.push(ms);
  }

  /** Requests to paths starting with `prefix` (and of `method`, when given). */
  calls(prefix: string, method?: string): StandInRequest[] {
    return this.requests.filter((r) => r.path.startsWith(prefix) && (!method || r.method === method));
  }

  close(): Promise<void> {
    return this.stop();
  }

  private async answer(request: StandInRequest, options: StandInOptions): Promise<StandInReply> {
    this.requests.push(request);
    for (const route of options.routes) {
      const match = route.method === request.method ? request.path.match(route.path) : null;
      if (!match) continue;
      if (!route.token) {
        const stall = this.stalls.shift();
        if (stall) await new Promise((resolve) => setTimeout(resolve, stall));
        const fault = this.faults.shift();
        if (fault) return options.errorBody(fault, 'stand-in exploded: secret internal detail');
      }
      return route.handle(request, match);
    }
    return options.errorBody(404, `No route for ${request.method} ${request.path}`);
  }
}

/** Bearer/OAuth tokens a stand-in hands out, and which of them still work. */
export class IssuedTokens {
  private readonly live = new Set<string>();
  private count = 0;
  /** Refuse every token, even fresh ones (to prove the client retries only once). */
  refuseAll = false;

  issue(prefix = 'token'): string {
    const token = `${prefix}-${++this.count}-${Math.random().toString(36).slice(2, 8)}`;
    this.live.add(token);
    return token;
  }

  accept(token: string | undefined): boolean {
    return !!token && !this.refuseAll && this.live.has(token);
  }

  /** Every token handed out so far stops working, as if it had expired. */
  expireAll(): void {
    this.live.clear();
  }
}

/** The credential in an "Authorization: <scheme> <credential>" header. */
export function credential(request: StandInRequest, scheme: string): string | undefined {
  const header = request.headers.authorization;
  if (!header?.toLowerCase().startsWith(`${scheme.toLowerCase()} `)) return undefined;
  return header.slice(scheme.length + 1).trim();
}

/** "Basic base64(id:secret)" decoded. */
export function basicCredentials(request: StandInRequest): { id: string; secret: string } | undefined {
  const encoded = credential(request, 'Basic');
  if (!encoded) return undefined;
  const [id = '', ...rest] = Buffer.from(encoded, 'base64').toString('utf8').split(':');
  return { id, secret: rest.join(':') };
}
