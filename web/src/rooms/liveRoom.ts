// One live room for the room screen (spec 002 §4 "Room live state"): joining
// disconnects any prior socket and loads the whole state; patches apply in
// version order; a failed patch or a version gap rejoins; a dropped socket
// reconnects and rejoins; `roomReset` rejoins after a random delay up to 2 s;
// `kickedFromRoom` leaves and keeps the reason. Plain TypeScript: the React
// side reads `snapshot` through useSyncExternalStore.
import { ERROR_CODES, errorCode, errorText, FeedError, KEPT_OUT_CODES } from '../api/errors';
import type { OneTimeAnimationName, RoomState } from '../api/types';
import { ServerClock } from './clock';
import { FeedSocket, type RoomEnvelope } from './feedSocket';
import { applyStateful, type LiveState } from './roomState';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'kicked' | 'failed' | 'left';

export interface Animation {
  animation: OneTimeAnimationName;
  emoji?: string;
  at: number;
}

export interface LiveSnapshot {
  status: LiveStatus;
  live?: LiveState;
  error?: string;
  /** The refusal's code, when joining failed with one (a paid room's prompt answers some). */
  errorCode?: string;
  kickReason?: string;
  animations: Record<string, Animation>;
  /** AFK warnings: DJ uuid -> when they leave the stage. */
  afk: Record<string, number>;
}

export interface LiveRoomOptions {
  baseUrl: string;
  roomUuid: string;
  password?: string;
  token: () => string | null;
  /** Random source for the reset delay (tests pass their own). */
  random?: () => number;
  createSocket?: (baseUrl: string, token: string, events: ConstructorParameters<typeof FeedSocket>[2]) => FeedSocket;
}

export const RESET_DELAY_MAX_MS = 2000;

export class LiveRoom {
  readonly clock = new ServerClock();
  private socket: FeedSocket | undefined;
  private current: LiveSnapshot = { status: 'connecting', animations: {}, afk: {} };
  private listeners = new Set<() => void>();
  private eventListeners = new Set<(name: string, params: Record<string, unknown>) => void>();
  private stopped = false;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private joinSeq = 0;

  constructor(private readonly options: LiveRoomOptions) {}

  get snapshot(): LiveSnapshot {
    return this.current;
  }

  get state(): RoomState | undefined {
    return this.current.live?.state;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Every room message by name (chat pushes, playedSong, ...), after the state took it. */
  onEvent(listener: (name: string, params: Record<string, unknown>) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  start() {
    this.stopped = false;
    void this.join();
  }

  /** Joins again after a final refusal (e.g. once the tokens a paid room asks for are bought). */
  retry() {
    this.set({ status: 'connecting', error: undefined, errorCode: undefined });
    this.start();
  }

  /** Leaving clears the state. */
  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.socket?.close();
    this.socket = undefined;
    this.set({ status: 'left', live: undefined });
  }

  action(name: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    if (!this.socket) return Promise.reject(FeedError.local('feedNotConnected'));
    return this.socket.action(name, { roomUuid: this.options.roomUuid, ...params });
  }

  private set(patch: Partial<LiveSnapshot>) {
    this.current = { ...this.current, ...patch };
    for (const listener of this.listeners) listener();
  }

  private async join() {
    const seq = ++this.joinSeq;
    clearTimeout(this.retryTimer);
    this.socket?.close();
    const token = this.options.token();
    if (!token) {
      this.set({ status: 'failed', error: errorText(FeedError.local('signInFirst')) });
      return;
    }
    const buffered: RoomEnvelope[] = [];
    let joined = false;
    const socket = (this.options.createSocket ?? ((b, t, e) => new FeedSocket(b, t, e)))(this.options.baseUrl, token, {
      onMessage: (envelope) => {
        if (seq !== this.joinSeq) return;
        if (!joined) buffered.push(envelope);
        else this.receive(envelope);
      },
      onClose: (intentional) => {
        if (seq !== this.joinSeq || intentional || this.stopped) return;
        if (this.current.status === 'kicked') return;
        this.scheduleRejoin(this.backoff());
      },
      onServerTime: (ms) => this.clock.observe(ms),
    });
    this.socket = socket;
    try {
      await socket.opened;
      const answer = await socket.action('joinRoom', {
        roomUuid: this.options.roomUuid,
        ...(this.options.password ? { password: this.options.password } : {}),
      });
      if (seq !== this.joinSeq) return;
      this.clock.observe(Number(answer.serverTime));
      this.attempt = 0;
      joined = true;
      this.set({
        status: 'live',
        live: { state: answer.state as RoomState, version: Number(answer.version ?? 0) },
        error: undefined,
        errorCode: undefined,
      });
      for (const envelope of buffered.splice(0)) this.receive(envelope);
    } catch (error) {
      if (seq !== this.joinSeq || this.stopped) return;
      // In the reader's language: a coded refusal by its code, the client's own failures by theirs.
      const message = errorText(error instanceof FeedError ? error : FeedError.local('feedUnreachable'));
      const code = errorCode(error);
      // Refusals (banned, kicked, wrong password, no such room: every coded one) are final; a lost connection is retried.
      if (code !== undefined && KEPT_OUT_CODES.has(code)) {
        socket.close();
        this.set({ status: 'kicked', kickReason: message });
      } else if (code !== undefined && code !== ERROR_CODES.feedTooManyMessages) {
        socket.close();
        this.set({ status: 'failed', error: message, errorCode: code });
      } else {
        socket.close();
        this.scheduleRejoin(this.backoff(), message);
      }
    }
  }

  private backoff(): number {
    this.attempt += 1;
    return Math.min(10_000, 500 * 2 ** (this.attempt - 1));
  }

  private scheduleRejoin(delayMs: number, error?: string) {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.set({ status: 'reconnecting', ...(error ? { error } : {}) });
    this.retryTimer = setTimeout(() => void this.join(), delayMs);
  }

  private receive(envelope: RoomEnvelope) {
    const { name, statePatch, params = {} } = envelope.message;
    if (statePatch) {
      const live = this.current.live;
      if (!live) return;
      const outcome = applyStateful(live, statePatch, envelope.version);
      if (outcome.kind === 'rejoin') {
        console.warn(`Room state out of step (${outcome.reason}); rejoining`);
        this.joinSeq += 1; // ignore the rest of this socket
        this.socket?.close();
        this.scheduleRejoin(0);
        return;
      }
      if (outcome.kind === 'applied') this.set({ live: outcome.live });
    } else if (name === 'roomReset') {
      this.joinSeq += 1;
      this.socket?.close();
      this.scheduleRejoin(Math.floor((this.options.random ?? Math.random)() * RESET_DELAY_MAX_MS));
    } else if (name === 'kickedFromRoom') {
      this.joinSeq += 1;
      this.socket?.close();
      this.set({ status: 'kicked', kickReason: typeof params.reason === 'string' ? params.reason : '', live: undefined });
    } else if (name === 'playedOneTimeAnimation') {
      const uuid = typeof params.userUuid === 'string' ? params.userUuid : '';
      this.set({
        animations: {
          ...this.current.animations,
          [uuid]: { animation: params.animation === 'emoji' ? 'emoji' : 'jump', emoji: params.emoji as string | undefined, at: Date.now() },
        },
      });
    } else if (name === 'warnedAfkDj') {
      this.set({ afk: { ...this.current.afk, [String(params.userUuid)]: Number(params.removeAt) } });
    }
    for (const listener of this.eventListeners) listener(name, params);
  }
}
