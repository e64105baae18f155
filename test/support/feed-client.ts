import jsonpatch from 'fast-json-patch';
import { SocketClient } from 'ttfm-socket';
import { eventually } from '@spinroom/platform/testing';

type Json = any;

/**
 * A room listener on the published `ttfm-socket` client: keeps the room state
 * by applying every patch (as the original's clients do) and records the
 * versions and messages it saw.
 */
export class FeedListener {
  state: Json;
  version = 0;
  readonly versions: number[] = [];
  readonly messages: Json[] = [];
  readonly errors: string[] = [];
  /** What the client's `statefulMessage` listeners got (only each envelope's `message`), in order. */
  readonly stateful: Json[] = [];
  /** The track names `playedSong` started, in order (null when the stage went silent). */
  readonly plays: Array<string | null> = [];
  kicked = false;
  reset = false;

  private constructor(
    readonly client: SocketClient,
    readonly userUuid: string,
  ) {}

  static async join(baseUrl: string, token: string, userUuid: string, roomUuid: string, password?: string): Promise<FeedListener> {
    const client = new SocketClient(baseUrl);
    const listener = new FeedListener(client, userUuid);
    client.on('serverMessage', (message: Json) => listener.receive(message));
    client.on('statefulMessage', (message: Json) => listener.stateful.push(message));
    client.on('error', (error: Json) => listener.errors.push(String(error)));
    const answer: Json = await client.joinRoom(token, { roomUuid, ...(password ? { password } : {}) });
    listener.state = answer.state;
    listener.version = answer.version;
    // Messages that arrived before the join's promise settled apply now, in order.
    for (const message of listener.early.splice(0)) listener.receive(message);
    return listener;
  }

  private readonly early: Json[] = [];

  private receive(message: Json): void {
    if (this.state === undefined) {
      this.early.push(message);
      return;
    }
    this.messages.push(message);
    const body = message.message;
    if (body.name === 'kickedFromRoom') this.kicked = true;
    if (body.name === 'roomReset') this.reset = true;
    if (!body.statePatch) return;
    this.state = jsonpatch.applyPatch(this.state, body.statePatch, true, false).newDocument;
    if (body.name === 'playedSong') this.plays.push(this.state.nowPlaying?.song?.trackName ?? null);
    if (message.version !== undefined && message.version !== this.version) {
      this.versions.push(message.version);
      this.version = message.version;
    }
  }

  action(name: string, params: Record<string, unknown> = {}): Promise<Json> {
    return this.client.action(name as never, params);
  }

  named(name: string): Json[] {
    return this.messages.filter((m) => m.message.name === name);
  }

  async until(predicate: (state: Json) => boolean, what = 'room state'): Promise<Json> {
    return eventually(
      async () => {
        if (!predicate(this.state))
          throw new Error(`waiting for ${what}: ${JSON.stringify(this.state?.nowPlaying?.song?.trackName ?? null)}`);
        return this.state;
      },
      20_000,
      50,
    );
  }

  close(): void {
    this.client.disconnect();
  }
}
