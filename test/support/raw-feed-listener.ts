import jsonpatch from 'fast-json-patch';
import WebSocket from 'ws';

type Json = any;

/**
 * One room listener on a raw `ws` socket speaking the feed protocol
 * (ROOM-FEED.md), for tests of many listeners or of sockets that drop: it
 * answers the heartbeat, joins, keeps the room state by applying every patch,
 * and rejoins whenever its socket closes (a dead BFF, a `roomReset`, a
 * refusal while a dependency is away), at `url` as it is then (a load
 * balancer's choice). It counts joins, resets and any stateful version that
 * neither repeats nor follows the one it holds. (test/support/feed-client.ts
 * is the published `ttfm-socket` client, for everything else.)
 */
export class RawFeedListener {
  ws?: WebSocket;
  state: Json;
  version = 0;
  joins = 0;
  resets = 0;
  gaps = 0;
  /** When the latest join was answered, and when the first patch after it arrived (0: none yet). */
  joinedAt = 0;
  patchedAt = 0;
  /** Stateful versions since the latest join. */
  versions: number[] = [];
  /** Patches that did not apply to the state held (a stale state would show here). */
  readonly unappliable: string[] = [];
  /** The names of the stateless messages heard. */
  readonly heard: string[] = [];
  lastError?: string;
  stopped = false;
  private nextMessageId = 1;
  private readonly waiting = new Map<number, (answer: Json) => void>();

  constructor(
    /** Where it joins and rejoins. */
    public url: string,
    readonly token: string,
    readonly roomUuid: string,
  ) {}

  /** Joins, trying again until answered (a join may time out or be refused on a loaded or recovering platform). */
  async start(): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt += 1) {
      try {
        await this.connect();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** attempt, 1_000)));
      }
    }
  }

  /** An action on the current socket: its answer (`status: 'OK'`, or `error`). */
  act(action: string, params: Record<string, unknown> = {}): Promise<Json> {
    const ws = this.ws;
    if (!ws || this.state === undefined) return Promise.resolve({ error: 'not joined' });
    return new Promise((resolve) => this.send(ws, action, params, resolve));
  }

  close(): void {
    this.stopped = true;
    this.ws?.terminate();
  }

  private connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${this.url.replace(/^http/, 'ws')}/primus?token=${encodeURIComponent(this.token)}`, {
        perMessageDeflate: false,
      });
      this.ws = ws;
      this.state = undefined;
      let joined = false;
      ws.on('open', () => {
        // Taken as it arrives (not a promise's turn later): the messages right behind it apply to it.
        this.send(ws, 'joinRoom', {}, (answer) => {
          if (answer.status !== 'OK') {
            this.lastError = String(answer.error);
            ws.terminate();
            return reject(new Error(this.lastError));
          }
          this.state = answer.state;
          this.version = answer.version;
          this.versions = [];
          this.joins += 1;
          this.joinedAt = Date.now();
          this.patchedAt = 0;
          joined = true;
          resolve();
        });
      });
      ws.on('message', (data: Buffer) => this.receive(ws, data.toString()));
      ws.on('error', () => undefined);
      ws.on('close', () => {
        for (const answer of this.waiting.values()) answer({ error: 'closed' });
        this.waiting.clear();
        if (this.ws !== ws) return;
        if (!joined) reject(new Error('closed before joining'));
        else if (!this.stopped) void this.start();
      });
    });
  }

  private send(ws: WebSocket, action: string, params: Record<string, unknown>, answered: (answer: Json) => void): void {
    const messageId = this.nextMessageId++;
    this.waiting.set(messageId, answered);
    ws.send(JSON.stringify({ event: 'action', messageId, params: { ...params, action, roomUuid: this.roomUuid } }));
  }

  private receive(ws: WebSocket, text: string): void {
    if (this.ws !== ws) return;
    const message: Json = JSON.parse(text);
    if (typeof message === 'string') {
      if (message.startsWith('primus::ping::')) ws.send(JSON.stringify(message.replace('ping', 'pong')));
      return;
    }
    if (message.context === 'response') {
      this.waiting.get(message.messageId)?.(message);
      this.waiting.delete(message.messageId);
      return;
    }
    const body = message.message;
    if (!body?.statePatch) {
      if (body?.name) this.heard.push(body.name);
      if (body?.name === 'roomReset') this.resets += 1;
      return;
    }
    if (this.state === undefined) return;
    const version: number = body.version;
    if (version !== this.version && version !== this.version + 1) {
      this.gaps += 1;
      return;
    }
    try {
      // In place: a storm's thousands of listeners each hold the room.
      jsonpatch.applyPatch(this.state, body.statePatch, false, true);
    } catch (error) {
      this.unappliable.push(`${body.name} ${version}: ${String(error)}`);
      return;
    }
    if (version === this.version + 1) {
      this.versions.push(version);
      if (this.patchedAt === 0) this.patchedAt = Date.now();
    }
    this.version = version;
  }
}
