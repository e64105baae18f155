// The fan-out benchmark's Web Push service (scripts/bench/fanout.ts): web-push-testing
// (the stand-in the social service's tests use, services/social/test/support/push-stand-ins.ts)
// in a process of its own, so its CPU is counted apart from the load generator's.
// It does what a browser vendor's push service does with each push: checks the
// VAPID signature against the key the subscription was made with, decrypts the
// aes128gcm payload with the subscription's keys and answers 201 (400 for a bad
// one, 410 for an expired subscription). On top, it counts what it accepted.
//
// Driven over IPC (fork): `subscribe` makes subscriptions in the model as a
// browser's PushManager.subscribe would (answers their endpoints and keys);
// `stats` answers, for one DJ's djOnStage pushes, how many subscriptions got
// theirs, how many got it again, and when the first and the last arrived
// (Date.now()). Environment: PORT (the push service's port; it builds its
// endpoints from it).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface Model {
  notifyUrl: string;
  messages: Record<string, string[]>;
  subscribe(options: { userVisibleOnly: string; applicationServerKey: string }): Promise<{
    endpoint: string;
    keys: { p256dh: string; auth: string };
    clientHash: string;
  }>;
  handleNotification(clientHash: string, headers: Record<string, string | undefined>, body: Buffer): Promise<void>;
}

export type StandInCommand =
  | { type: 'subscribe'; count: number; applicationServerKey: string }
  | { type: 'stats'; djUuid: string }
  | { type: 'reset' };

export type StandInReply =
  | { type: 'ready'; base: string }
  | { type: 'subscribed'; subscriptions: Array<{ endpoint: string; p256dh: string; auth: string }> }
  | {
      type: 'stats';
      /** Subscriptions that received the DJ's push at least once. */
      delivered: number;
      /** Pushes of the DJ's a subscription had already received. */
      again: number;
      /** Pushes refused (a bad signature or payload; 400 or 410), any DJ. */
      refused: number;
      firstAt: number | null;
      lastAt: number | null;
    };

interface PerDj {
  told: Set<string>;
  again: number;
  firstAt: number | null;
  lastAt: number | null;
}

const { PushApiModel } = require('web-push-testing/src/PushApiModel') as { PushApiModel: new () => Model };
const TestingServer = require('web-push-testing/src/server') as new (
  model: Model,
  port: number,
) => { startServer(): void; _server?: import('node:http').Server };

const port = Number(process.env.PORT ?? 18480);
const byDj = new Map<string, PerDj>();
let refused = 0;

/** The model, counting each push it accepted by the DJ its djOnStage payload names; messages are not kept. */
class CountingModel extends PushApiModel {
  override async handleNotification(clientHash: string, headers: Record<string, string | undefined>, body: Buffer): Promise<void> {
    try {
      await super.handleNotification(clientHash, headers, body);
    } catch (error) {
      refused += 1;
      throw error;
    }
    const text = this.messages[clientHash]?.pop();
    const payload = JSON.parse(text ?? '{}') as { kind?: string; data?: { djUuid?: string } };
    const djUuid = payload.kind === 'djOnStage' ? payload.data?.djUuid : undefined;
    if (!djUuid) return;
    const now = Date.now();
    const dj = byDj.get(djUuid) ?? { told: new Set<string>(), again: 0, firstAt: null, lastAt: null };
    byDj.set(djUuid, dj);
    if (dj.told.has(clientHash)) dj.again += 1;
    else dj.told.add(clientHash);
    dj.firstAt ??= now;
    dj.lastAt = now;
  }
}

const model = new CountingModel();
const server = new TestingServer(model, port);
const log = console.log;
console.log = () => undefined; // it announces its port on stdout
server.startServer();
console.log = log;
server._server!.once('listening', () => process.send!({ type: 'ready', base: `http://localhost:${port}` } satisfies StandInReply));

process.on('message', (command: StandInCommand) => {
  void (async () => {
    if (command.type === 'subscribe') {
      const subscriptions: Array<{ endpoint: string; p256dh: string; auth: string }> = [];
      for (let i = 0; i < command.count; i += 1) {
        const made = await model.subscribe({ userVisibleOnly: 'true', applicationServerKey: command.applicationServerKey });
        subscriptions.push({ endpoint: made.endpoint, p256dh: made.keys.p256dh, auth: made.keys.auth });
      }
      process.send!({ type: 'subscribed', subscriptions } satisfies StandInReply);
    } else if (command.type === 'stats') {
      const dj = byDj.get(command.djUuid);
      process.send!({
        type: 'stats',
        delivered: dj?.told.size ?? 0,
        again: dj?.again ?? 0,
        refused,
        firstAt: dj?.firstAt ?? null,
        lastAt: dj?.lastAt ?? null,
      } satisfies StandInReply);
    } else if (command.type === 'reset') {
      byDj.clear();
      refused = 0;
    }
  })();
});
process.on('disconnect', () => process.exit(0));
