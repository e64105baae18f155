// The room feed's wire protocol (bff/FEED.md): JSON frames over a WebSocket at
// /primus?token=..., Primus heartbeats, actions answered by messageId, and
// room messages (stateful with a patch and version, or stateless).
import type { Operation } from 'fast-json-patch';
import { FeedError } from '../api/errors';

export interface RoomEnvelope {
  context: 'user';
  room: string;
  sentAt?: number;
  messageId?: number;
  version?: number;
  message: { name: string; statePatch?: Operation[]; params?: Record<string, unknown> };
}

interface Pending {
  resolve: (value: Record<string, unknown>) => void;
  reject: (error: FeedError) => void;
  timer: ReturnType<typeof setTimeout>;
}

export interface FeedSocketEvents {
  onMessage: (envelope: RoomEnvelope) => void;
  /** The socket closed (by either side); `intentional` when we closed it. */
  onClose: (intentional: boolean) => void;
  /** A ping's server time, for the clock. */
  onServerTime?: (serverMs: number) => void;
}

const ACTION_TIMEOUT_MS = 15_000;
const SILENCE_MS = 45_000;
/** The close code for a connection that heard no ping: not a leave (application codes start at 4000). */
const NO_HEARTBEAT = 4000;

export class FeedSocket {
  private ws: WebSocket;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private closedOnPurpose = false;
  private silence: ReturnType<typeof setTimeout> | undefined;
  readonly opened: Promise<void>;

  constructor(
    baseUrl: string,
    token: string,
    private readonly events: FeedSocketEvents,
  ) {
    const url = new URL('/primus', baseUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('token', token);
    this.ws = new WebSocket(url);
    this.opened = new Promise((resolve, reject) => {
      this.ws.addEventListener('open', () => resolve(), { once: true });
      this.ws.addEventListener('error', () => reject(FeedError.local('feedUnreachable')), { once: true });
    });
    this.ws.addEventListener('message', (event) => this.receive(String(event.data)));
    this.ws.addEventListener('close', () => this.closed());
    this.armSilence();
  }

  /** Sends an action; resolves with the answer's fields or rejects with a FeedError (the answer's error and code). */
  action(action: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const messageId = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.ws.readyState !== WebSocket.OPEN) {
        reject(FeedError.local('feedNotConnected'));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(messageId);
        reject(FeedError.local('genericError'));
      }, ACTION_TIMEOUT_MS);
      this.pending.set(messageId, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ event: 'action', params: { action, ...params }, messageId }));
    });
  }

  /** Leaving the room (the button, another page): the server takes this person off the floor at once. */
  close() {
    this.closedOnPurpose = true;
    this.ws.close(1000);
    this.closed();
  }

  private armSilence() {
    clearTimeout(this.silence);
    // No ping for 45 s: the connection is dead even if the socket does not know it. Closed with a
    // code of our own, not as a leave: the server keeps this person in the room while it reconnects.
    this.silence = setTimeout(() => this.ws.close(NO_HEARTBEAT), SILENCE_MS);
  }

  private receive(text: string) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof data === 'string') {
      if (data.startsWith('primus::ping::')) {
        this.armSilence();
        this.ws.send(JSON.stringify(`primus::pong::${data.slice('primus::ping::'.length)}`));
        this.events.onServerTime?.(Number(data.slice('primus::ping::'.length)));
      } else if (data === 'primus::server::close') {
        this.ws.close();
      }
      return;
    }
    const frame = data as Record<string, unknown>;
    if (frame.context === 'response') {
      const pending = this.pending.get(frame.messageId as number);
      if (!pending) return;
      this.pending.delete(frame.messageId as number);
      clearTimeout(pending.timer);
      if (typeof frame.error === 'string')
        pending.reject(new FeedError(frame.error, typeof frame.code === 'string' ? frame.code : undefined));
      else pending.resolve(frame);
      return;
    }
    if (frame.context === 'user' && frame.message) this.events.onMessage(frame as unknown as RoomEnvelope);
  }

  private done = false;
  private closed() {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.silence);
    for (const [, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(FeedError.local('feedLost'));
    }
    this.pending.clear();
    this.events.onClose(this.closedOnPurpose);
  }
}
