import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  badRequest,
  feedMetrics,
  isAppError,
  roomMessageJson,
  type Caller,
  type Logger,
  type SessionsEnded,
  type TokenVerifier,
} from '@spinroom/platform/core';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { z } from 'zod';
import type { HiddenSenders } from './blocked-senders.js';
import { FEED_ERROR_CODES } from './feed-errors.js';
import type { JoinedRoom, LiveRoomGateway } from './gateway.js';
import { JoinAnswers, sharedJoinAnswer, type SharedJoinAnswer } from './join-answers.js';
import { isLiveAction, liveAction } from './live-actions.js';
import { DEFAULT_FAN_OUT_INTERVAL_MS, type FrameListener, type RoomBatch, type RoomChannels, type RoomFrame } from './room-channels.js';
import { textFrame, textFrameHeader } from './wire.js';

/** The feed's limits; defaults suit production, tests shorten the clocks. */
export interface FeedLimits {
  /** How often the server pings (Primus heartbeat); a client silent for two pings is dropped. */
  pingIntervalMs: number;
  /** Largest frame a client may send (bytes); larger closes the socket (1009). */
  maxFrameBytes: number;
  /** A client that has this much unsent is too slow: dropped, not buffered without bound. */
  maxBufferedBytes: number;
  /** Sustained messages per second a connection may send, and the burst above it. */
  messagesPerSecond: number;
  messageBurst: number;
  /** How often the room service hears which connections are still here. */
  keepAliveMs: number;
  /** A room's frames are handed out at most this often when they come faster (room-channels.ts): each socket's writes gathered. */
  fanOutIntervalMs: number;
}

export const DEFAULT_FEED_LIMITS: FeedLimits = {
  pingIntervalMs: 25_000,
  maxFrameBytes: 16 * 1024,
  maxBufferedBytes: 1024 * 1024,
  messagesPerSecond: 10,
  messageBurst: 30,
  keepAliveMs: 15_000,
  fanOutIntervalMs: DEFAULT_FAN_OUT_INTERVAL_MS,
};

const ClientMessage = z.object({
  event: z.string().max(64),
  messageId: z.number().int().nonnegative().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
  room: z.string().max(64).optional(),
});
const RoomUuid = z.uuid();

const GENERIC_ERROR = 'Something went wrong, please try again';
const TOO_MANY = 'Too many messages, slow down.';
/**
 * Close codes of a client that left on purpose: normal closure, going away (a
 * closed tab or a reload) and no status (close() without a code). A dropped
 * connection ends without a close frame (1006); other codes are the client's
 * own reasons (a missed heartbeat, say), which may well bring it back.
 */
const LEFT_ON_PURPOSE: ReadonlySet<number> = new Set([1000, 1001, 1005]);

/**
 * The room feed at `/primus`: the original's socket protocol (Actionhero
 * messages over Primus WebSockets), so `ttfm-socket` works unchanged.
 */
export class FeedServer {
  private readonly wss: WebSocketServer;
  private readonly connections = new Set<FeedConnection>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** The rooms' join states, fetched once per room version for the joiners waiting at the same time. */
  private readonly joinAnswers: JoinAnswers;

  constructor(
    private readonly options: {
      verifier: () => TokenVerifier | undefined;
      gateway: LiveRoomGateway;
      channels: RoomChannels;
      logger: Logger;
      /** Browser origins allowed besides the BFF's own. */
      allowedOrigins: string[];
      limits?: Partial<FeedLimits>;
      /** Whose chat messages each reader blocked (none hidden without it). */
      hiddenSenders?: HiddenSenders;
    },
  ) {
    this.limits = { ...DEFAULT_FEED_LIMITS, ...options.limits };
    this.joinAnswers = new JoinAnswers(options.gateway);
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: this.limits.maxFrameBytes,
      perMessageDeflate: false,
      clientTracking: false,
    });
    this.timers.push(setInterval(() => this.heartbeat(), this.limits.pingIntervalMs));
    this.timers.push(setInterval(() => void this.keepAlive(), this.limits.keepAliveMs));
  }

  readonly limits: FeedLimits;

  /** Serves the feed on `server`'s WebSocket upgrades to `/primus`. */
  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      // Node's HTTP server stops listening to an upgraded socket's errors, and
      // ws starts only once the token is checked: a client resetting meanwhile
      // would emit an error nobody hears, which ends the process.
      socket.on('error', () => socket.destroy());
      void this.upgrade(request, socket, head);
    });
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Closes the sockets whose token an ended session refuses (they reconnect, and their token is refused). */
  endSessions(ended: SessionsEnded): void {
    for (const connection of [...this.connections]) {
      if (connection.openedBefore(ended)) connection.close('primus::server::close');
    }
  }

  /** Closes every socket (clients reconnect elsewhere) and stops the clocks. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    for (const connection of [...this.connections]) connection.close('primus::server::close');
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://feed');
    if (url.pathname !== '/primus' && !url.pathname.startsWith('/primus/')) return refuse(socket, 404, 'Not Found');
    if (!this.originAllowed(request)) return refuse(socket, 403, 'Forbidden');
    const verifier = this.options.verifier();
    if (!verifier) return refuse(socket, 503, 'Service Unavailable');
    let caller: Caller;
    try {
      caller = await verifier.verify(url.searchParams.get('token') ?? '');
    } catch {
      return refuse(socket, 401, 'Unauthorized');
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      const connection = new FeedConnection(
        ws,
        socket,
        caller,
        this.options.gateway,
        this.joinAnswers,
        this.options.channels,
        this.limits,
        this.options.logger,
        this.options.hiddenSenders,
      );
      this.connections.add(connection);
      feedMetrics.connected();
      ws.once('close', (code: number) => {
        feedMetrics.disconnected();
        this.connections.delete(connection);
        connection.closed(code);
      });
    });
  }

  /** Browsers send Origin: the BFF's own, or a listed one. Bots and servers send none. */
  private originAllowed(request: IncomingMessage): boolean {
    const origin = request.headers.origin;
    if (!origin) return true;
    if (this.options.allowedOrigins.includes(origin)) return true;
    try {
      return new URL(origin).host === request.headers.host;
    } catch {
      return false;
    }
  }

  private heartbeat(): void {
    const ping = JSON.stringify(`primus::ping::${Date.now()}`);
    const wire = textFrame(ping); // framed once for every socket, as room frames are
    for (const connection of this.connections) connection.ping(ping, wire);
  }

  private async keepAlive(): Promise<void> {
    const held = [...this.connections].flatMap((c) => c.held());
    for (let i = 0; i < held.length; i += 1000) {
      await this.options.gateway
        .keepAlive(held.slice(i, i + 1000))
        .catch((error: unknown) => this.options.logger.warn({ err: error }, 'keep-alive failed'));
    }
  }
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

interface JoinedRoomState {
  uuid: string;
  /** The last room version this connection has. */
  version: number;
  /** False while joining: frames wait in `buffer` until the join's state is sent. */
  live: boolean;
  buffer: RoomFrame[];
  /** Whether the caller's blocked users are held for this room's chat frames (people, not guests). */
  watchesBlocks: boolean;
}

/** One socket: its caller, its room, its heartbeat and its budget. */
class FeedConnection implements FrameListener {
  readonly id = randomUUID();
  private room: JoinedRoomState | undefined;
  private missedPongs = 0;
  private tokens: number;
  private lastRefill = Date.now();
  private refused = 0;
  /** This server ended the socket (a refusal, a reset, a dropped heartbeat): the person did not leave on purpose. */
  private closedByServer = false;

  /**
   * Whether frames framed once for everyone can be written to this socket as
   * they are: not if it negotiated an extension (permessage-deflate, which the
   * server turns off), whose frames ws must compress for this socket alone.
   */
  private readonly sharesFrames: boolean;
  /**
   * Unsent bytes tolerated beyond `maxBufferedBytes`: the size of the join's
   * answer (the room's whole state, which a client in a big room cannot have
   * read yet when the next frames come), so a reader keeping up is not taken for a slow one.
   */
  private answerAllowance = 0;

  constructor(
    private readonly ws: WebSocket,
    /** The upgraded TCP socket ws writes to: shared frames are written here, in order with ws's own. */
    private readonly socket: Duplex,
    private readonly caller: Caller,
    private readonly gateway: LiveRoomGateway,
    private readonly joinAnswers: JoinAnswers,
    private readonly channels: RoomChannels,
    private readonly limits: FeedLimits,
    private readonly logger: Logger,
    private readonly hiddenSenders?: HiddenSenders,
  ) {
    this.tokens = limits.messageBurst;
    this.sharesFrames = ws.extensions === '';
    ws.on('message', (data: RawData, isBinary: boolean) => void this.receive(data, isBinary));
    ws.on('error', () => ws.terminate());
  }

  held(): Array<{ roomUuid: string; connectionId: string; userUuid: string }> {
    return this.room?.live ? [{ roomUuid: this.room.uuid, connectionId: this.id, userUuid: this.caller.userUuid }] : [];
  }

  ping(text: string, wire: Buffer): void {
    if (this.missedPongs >= 2) {
      this.closedByServer = true;
      this.ws.terminate();
      return;
    }
    this.missedPongs += 1;
    this.sendFramed(text, wire);
  }

  /**
   * A room's frames that came together. When this socket takes every one of
   * them as they are (a room message for everyone, at the next version), it
   * gets the room's buffer of them all in one write; otherwise each is
   * looked at in turn, and the writes gathered into one (corked).
   */
  deliver(batch: RoomBatch): void {
    const room = this.room;
    if (!room) return;
    if (!room.live) {
      for (const frame of batch.frames) room.buffer.push(frame);
      return;
    }
    if (this.sharesFrames && batch.uniform && (batch.firstVersion === 0 || batch.firstVersion === room.version + 1)) {
      if (batch.lastVersion !== 0) room.version = batch.lastVersion;
      if (this.writable()) this.socket.write(batch.wire);
      return;
    }
    if (batch.frames.length === 1) {
      this.deliverFrame(batch.frames[0]!);
      return;
    }
    this.socket.cork();
    for (const frame of batch.frames) this.deliverFrame(frame);
    this.socket.uncork();
  }

  private deliverFrame(frame: RoomFrame): void {
    const room = this.room;
    if (!room?.live) return;
    switch (frame.kind) {
      case 's':
        if (frame.version <= room.version) return; // already in the state this connection joined with
        if (frame.version !== room.version + 1) {
          // A patch is missing: this state can no longer be trusted. The client rejoins.
          this.logger.warn({ roomUuid: room.uuid, have: room.version, got: frame.version }, 'feed gap; resetting connection');
          this.send(roomResetJson(room.uuid));
          this.close('primus::server::close');
          return;
        }
        room.version = frame.version;
        this.sendFramed(frame.json, frame.wire);
        return;
      case 'e':
        this.sendFramed(frame.json, frame.wire);
        return;
      case 'c':
        if (room.watchesBlocks && this.hiddenSenders?.hides(this.caller.userUuid, frame.userUuid)) return;
        this.sendFramed(frame.json, frame.wire);
        return;
      case 'u':
        if (frame.userUuid === this.caller.userUuid) this.sendFramed(frame.json, frame.wire);
        return;
      case 'k':
        if (frame.userUuid !== this.caller.userUuid) return;
        this.sendFramed(frame.json, frame.wire);
        this.leaveRoom();
        this.close('primus::server::close');
        return;
      case 'r':
        this.sendFramed(frame.json, frame.wire);
        this.close('primus::server::close');
        return;
    }
  }

  /** Whether an ended session covers this socket's token. */
  openedBefore(ended: SessionsEnded): boolean {
    return ended.userUuid === this.caller.userUuid && (this.caller.issuedAtMs ?? 0) < ended.validAfterMs;
  }

  close(lastWords: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.closedByServer = true;
    this.send(JSON.stringify(lastWords));
    this.ws.close(1000);
  }

  private hangUp(code: number, reason: string): void {
    this.closedByServer = true;
    this.ws.close(code, reason);
  }

  /**
   * The socket is gone. A client that closed it plainly (the leave button, a
   * closed tab, a reload) left on purpose and leaves the room now; one that
   * dropped, or that this server closed, leaves after the room service's grace
   * period, in case it comes back.
   */
  closed(code: number): void {
    this.leaveRoom(!this.closedByServer && LEFT_ON_PURPOSE.has(code));
  }

  private send(text: string): void {
    if (this.writable()) this.ws.send(text);
  }

  /**
   * `text`, already framed as `wire` for every socket it goes to: written as is
   * (one write of a shared buffer, no framing or encoding per socket), with the
   * same checks as `send`. ws writes its own frames (answers, pings' pongs,
   * close) straight to the same socket too, so the order is kept.
   */
  private sendFramed(text: string, wire: Buffer): void {
    if (!this.writable()) return;
    if (this.sharesFrames) this.socket.write(wire);
    else this.ws.send(text);
  }

  /** Open, and keeping up: a client with too much unsent is dropped rather than buffered without bound (it reconnects and rejoins). */
  private writable(): boolean {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    if (this.ws.bufferedAmount > this.limits.maxBufferedBytes + this.answerAllowance) {
      this.logger.info({ connectionId: this.id }, 'slow feed client dropped');
      this.closedByServer = true;
      this.ws.terminate();
      return false;
    }
    return true;
  }

  /**
   * The join's answer and `updatedUserData`: this socket's own bytes (its
   * messageId and the server time), then the room's shared bytes as they are
   * (not copied or encoded per socket). The same bytes as `send` of the whole
   * text; checked once, so the second message of a big room's state is not
   * taken for a slow reader's backlog.
   */
  private sendJoinAnswer(messageId: number | undefined, roomUuid: string, answer: SharedJoinAnswer): void {
    if (!this.writable()) return;
    const head = Buffer.from(
      `{"context":"response","messageId":${messageId ?? 0},"status":"OK","roomUuid":${JSON.stringify(roomUuid)},` +
        `"allowedRooms":[${JSON.stringify(roomUuid)}],"didCreate":false,"serverTime":${Date.now()}`,
    );
    this.answerAllowance = head.length + answer.responseTail.length + answer.userDataFrame.length;
    if (!this.sharesFrames) {
      this.ws.send(Buffer.concat([head, answer.responseTail]), { binary: false });
      this.ws.send(answer.userDataPayload, { binary: false });
      return;
    }
    this.socket.cork();
    this.socket.write(Buffer.concat([textFrameHeader(head.length + answer.responseTail.length), head]));
    this.socket.write(answer.responseTail);
    this.socket.write(answer.userDataFrame);
    this.socket.uncork();
  }

  private respond(messageId: number | undefined, fields: Record<string, unknown>): void {
    this.send(JSON.stringify({ context: 'response', messageId, ...fields }));
  }

  private withinBudget(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.limits.messageBurst, this.tokens + ((now - this.lastRefill) / 1000) * this.limits.messagesPerSecond);
    this.lastRefill = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    this.refused += 1;
    return false;
  }

  private async receive(data: RawData, isBinary: boolean): Promise<void> {
    feedMetrics.received();
    if (isBinary) return this.hangUp(1003, 'text frames only');
    let parsed: unknown;
    try {
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- ws's default binaryType 'nodebuffer' always delivers a Buffer
      parsed = JSON.parse(data.toString());
    } catch {
      return this.hangUp(1007, 'frames are JSON');
    }
    // Every frame spends from the budget, Primus strings (pongs) included.
    if (!this.withinBudget()) {
      if (this.refused > this.limits.messageBurst) return this.hangUp(1008, 'flooding');
      return this.respond(undefined, { error: TOO_MANY, code: FEED_ERROR_CODES.tooManyMessages });
    }
    if (typeof parsed === 'string') {
      if (parsed.startsWith('primus::pong::')) this.missedPongs = 0;
      return;
    }
    const message = ClientMessage.safeParse(parsed);
    if (!message.success) return this.respond(undefined, { error: 'Malformed message', code: FEED_ERROR_CODES.malformedMessage });
    const { event, messageId, params } = message.data;
    try {
      if (event === 'action') await this.action(messageId, params ?? {});
      else if (event === 'detailsView') {
        this.respond(messageId, {
          status: 'OK',
          data: { id: this.id, fingerprint: this.id, rooms: this.room ? [this.room.uuid] : [], connectedAt: Date.now() },
        });
      } else if (event === 'roomLeave') {
        this.leaveRoom(true);
        this.respond(messageId, { status: 'OK' });
      } else this.respond(messageId, { error: `Unsupported event: ${event}`, code: FEED_ERROR_CODES.unsupportedEvent });
    } catch (error) {
      if (isAppError(error) && error.status < 500)
        return this.respond(messageId, { error: error.message, ...(error.code ? { code: error.code } : {}) });
      this.logger.error({ err: error, event }, 'feed action failed');
      this.respond(messageId, { error: GENERIC_ERROR });
    }
  }

  private async action(messageId: number | undefined, params: Record<string, unknown>): Promise<void> {
    const { action, roomUuid: rawRoom, ...rest } = params;
    if (typeof action !== 'string') throw badRequest('action is required', FEED_ERROR_CODES.invalidAction);
    const roomUuid = RoomUuid.safeParse(rawRoom);
    if (!roomUuid.success) throw badRequest('roomUuid must be a room uuid', FEED_ERROR_CODES.invalidAction);
    if (action === 'joinRoom') return this.join(messageId, roomUuid.data, rest);
    if (!isLiveAction(action)) throw badRequest(`Unknown action: ${action}`, FEED_ERROR_CODES.invalidAction);
    if (!this.room?.live || this.room.uuid !== roomUuid.data) throw badRequest('Join the room first.', FEED_ERROR_CODES.notJoined);
    // Identity comes from the token: clients' userUuid and tokenRole params are dropped with every unknown one.
    const { version } = await this.gateway.act(this.caller, roomUuid.data, liveAction(action, rest));
    this.respond(messageId, { status: 'OK', version });
  }

  private async join(messageId: number | undefined, roomUuid: string, params: Record<string, unknown>): Promise<void> {
    if (this.room && this.room.uuid !== roomUuid) this.leaveRoom();
    const watchesBlocks = this.hiddenSenders !== undefined && this.caller.kind === 'user';
    const room: JoinedRoomState = { uuid: roomUuid, version: 0, live: false, buffer: [], watchesBlocks };
    this.room = room;
    await this.channels.add(roomUuid, this);
    // Read beside the join: the first chat frames this connection gets are already filtered.
    const watching = watchesBlocks ? this.hiddenSenders?.watch(this.caller.userUuid) : undefined;
    let joined: JoinedRoom;
    try {
      // Guests may come in with the room's guest password (the room service tells the two apart).
      const given = [params.password, params.guestPassword].find((p) => typeof p === 'string' && p.length > 0);
      const password = typeof given === 'string' ? given : undefined;
      joined = await this.gateway.join(this.caller, { roomUuid, password, connectionId: this.id });
      await watching;
    } catch (error) {
      if (this.room === room) {
        this.channels.remove(roomUuid, this);
        this.room = undefined;
        if (watchesBlocks) this.hiddenSenders?.unwatch(this.caller.userUuid);
      }
      throw error;
    }
    if (this.room !== room) return;
    // The state at the joined version or later, fetched once for the room's joiners waiting now: frames
    // kept in the buffer meanwhile at or below its version are already in it, and dropped below.
    let answer: SharedJoinAnswer;
    try {
      answer = joined.state
        ? sharedJoinAnswer(roomUuid, joined.state, Date.now())
        : await this.joinAnswers.answer(roomUuid, joined.version);
    } catch (error) {
      if (this.room === room) this.leaveRoom();
      throw error;
    }
    if (this.room !== room) return;
    this.sendJoinAnswer(messageId, roomUuid, answer);
    room.version = answer.version;
    room.live = true;
    const waiting = room.buffer;
    room.buffer = [];
    this.socket.cork();
    for (const frame of waiting) this.deliverFrame(frame);
    this.socket.uncork();
  }

  /** Off the room's channel; `left` when the person left on purpose (see closed). */
  private leaveRoom(left = false): void {
    const room = this.room;
    if (!room) return;
    this.room = undefined;
    this.channels.remove(room.uuid, this);
    if (room.watchesBlocks) this.hiddenSenders?.unwatch(this.caller.userUuid);
    this.gateway.leave(room.uuid, this.id, left).catch((error: unknown) => this.logger.warn({ err: error }, 'leave failed'));
  }
}

function roomResetJson(roomUuid: string): string {
  return roomMessageJson({ roomUuid, sentAt: Date.now(), message: { name: 'roomReset', params: {} } });
}
