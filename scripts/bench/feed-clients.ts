// Room feed benchmark clients (scripts/bench/feed.ts forks one or more of these,
// so the server's CPU is measured apart from its listeners'). Raw `ws` sockets
// speaking the feed protocol (ROOM-FEED.md): answer the heartbeat, join a room,
// and for each stateful message record its delivery latency, receive time −
// `sentAt` (the same machine's clock), in a 1 ms histogram.
//
// Driven over IPC by the parent: connect, start, stop (answers the histogram),
// close. The messages are not parsed as JSON: `sentAt` is read from the bytes,
// so a client costs as little as possible next to the server it measures.
import WebSocket from 'ws';

export type ClientCommand =
  | { type: 'connect'; url: string; tokens: string[]; count: number; roomUuid?: string; concurrency: number }
  | { type: 'join'; roomUuid: string; concurrency: number }
  | { type: 'start' }
  | { type: 'stop' }
  | { type: 'close' };

export type ClientReply =
  | { type: 'connected'; open: number; failed: number; joined: number; joinFailed: number; ms: number; errors: string[] }
  | {
      type: 'stopped';
      histogram: number[];
      deliveries: number;
      over: number;
      max: number;
      seconds: number;
      open: number;
      closedDuring: number;
      resets: number;
    }
  | { type: 'started' }
  | { type: 'closed' };

/** Latencies up to this many ms are kept per ms; above, counted in `over` (and `max`). */
export const HISTOGRAM_MS = 10_000;

const SENT_AT = Buffer.from('"sentAt":');
const STATEFUL = Buffer.from('"statePatch"');
const RESET = Buffer.from('"roomReset"');
const PING = Buffer.from('"primus::ping::');
const RESPONSE = Buffer.from('{"context":"response"');

interface Client {
  ws: WebSocket;
  /** Resolves the pending join (messageId 1). */
  answered?: (ok: boolean, error?: string) => void;
}

const clients = new Set<Client>();
let measuring = false;
let histogram = new Uint32Array(HISTOGRAM_MS + 1);
let deliveries = 0;
let over = 0;
let max = 0;
let startedAt = 0;
let closedDuring = 0;
let resets = 0;

function readInt(buf: Buffer, from: number): number {
  let n = 0;
  for (let i = from; i < buf.length; i += 1) {
    const c = buf[i]!;
    if (c < 48 || c > 57) break;
    n = n * 10 + (c - 48);
  }
  return n;
}

function onMessage(client: Client, data: Buffer): void {
  if (data.indexOf(PING) === 0) {
    // "primus::ping::<ms>" -> "primus::pong::<ms>"
    client.ws.send(`"primus::pong::${readInt(data, PING.length)}"`);
    return;
  }
  if (data.indexOf(RESPONSE) === 0) {
    const ok = data.indexOf('"status":"OK"') >= 0;
    client.answered?.(ok, ok ? undefined : data.toString().slice(0, 200));
    client.answered = undefined;
    return;
  }
  if (!measuring) return;
  if (data.indexOf(RESET) >= 0) resets += 1;
  if (data.indexOf(STATEFUL) < 0) return;
  const at = data.indexOf(SENT_AT);
  if (at < 0) return;
  const latency = Date.now() - readInt(data, at + SENT_AT.length);
  deliveries += 1;
  if (latency > max) max = latency;
  if (latency < 0) histogram[0]! += 1;
  else if (latency > HISTOGRAM_MS) over += 1;
  else histogram[latency]! += 1;
}

function openOne(url: string, token: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url}?token=${encodeURIComponent(token)}`, { perMessageDeflate: false, skipUTF8Validation: true });
    const client: Client = { ws };
    ws.once('open', () => {
      clients.add(client);
      resolve(client);
    });
    ws.once('error', (error) => reject(error));
    ws.on('message', (data: Buffer) => onMessage(client, data));
    ws.once('close', () => {
      if (clients.delete(client) && measuring) closedDuring += 1;
      client.answered?.(false, 'closed');
    });
  });
}

function joinOne(client: Client, roomUuid: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('join timed out (30 s)')), 30_000);
    client.answered = (ok, error) => {
      clearTimeout(timer);
      if (ok) resolve();
      else reject(new Error(error));
    };
    client.ws.send(JSON.stringify({ event: 'action', params: { action: 'joinRoom', roomUuid }, messageId: 1 }));
  });
}

/** Runs `task` for 0..count-1 with at most `concurrency` in flight. */
async function pool(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

async function handle(command: ClientCommand): Promise<ClientReply> {
  switch (command.type) {
    case 'connect': {
      const started = performance.now();
      const errors: string[] = [];
      let open = 0;
      let failed = 0;
      let joined = 0;
      let joinFailed = 0;
      await pool(command.count, command.concurrency, async (i) => {
        let client: Client;
        try {
          client = await openOne(command.url, command.tokens[i % command.tokens.length]!);
          open += 1;
        } catch (error) {
          failed += 1;
          if (errors.length < 5) errors.push(`connect: ${(error as Error).message}`);
          return;
        }
        if (!command.roomUuid) return;
        try {
          await joinOne(client, command.roomUuid);
          joined += 1;
        } catch (error) {
          joinFailed += 1;
          if (errors.length < 5) errors.push(`join: ${(error as Error).message}`);
        }
      });
      return { type: 'connected', open, failed, joined, joinFailed, ms: performance.now() - started, errors };
    }
    case 'join': {
      // Joins every open socket (connected earlier without a room).
      const started = performance.now();
      const errors: string[] = [];
      const all = [...clients];
      let joined = 0;
      let joinFailed = 0;
      await pool(all.length, command.concurrency, async (i) => {
        try {
          await joinOne(all[i]!, command.roomUuid);
          joined += 1;
        } catch (error) {
          joinFailed += 1;
          if (errors.length < 5) errors.push(`join: ${(error as Error).message}`);
        }
      });
      return { type: 'connected', open: clients.size, failed: 0, joined, joinFailed, ms: performance.now() - started, errors };
    }
    case 'start':
      histogram = new Uint32Array(HISTOGRAM_MS + 1);
      deliveries = over = max = closedDuring = resets = 0;
      startedAt = performance.now();
      measuring = true;
      return { type: 'started' };
    case 'stop':
      measuring = false;
      return {
        type: 'stopped',
        histogram: [...histogram],
        deliveries,
        over,
        max,
        seconds: (performance.now() - startedAt) / 1000,
        open: clients.size,
        closedDuring,
        resets,
      };
    case 'close': {
      const all = [...clients];
      await Promise.all(
        all.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.ws.readyState === WebSocket.CLOSED) return resolve();
              c.ws.once('close', () => resolve());
              c.ws.close(1000);
              setTimeout(() => {
                c.ws.terminate();
                resolve();
              }, 5_000).unref();
            }),
        ),
      );
      clients.clear();
      return { type: 'closed' };
    }
  }
}

process.on('message', (command: ClientCommand) => {
  handle(command).then(
    (reply) => process.send!(reply),
    (error: unknown) => {
      console.error('[feed-clients]', error);
      process.exit(1);
    },
  );
});
process.on('disconnect', () => process.exit(0));
