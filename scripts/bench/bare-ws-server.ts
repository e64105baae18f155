// The room feed benchmark's reference (scripts/bench/feed.ts): a bare `ws`
// server that broadcasts each room frame's JSON, as the same string, to every
// socket that joined, the textbook `for (const c of clients) c.send(data)`.
// No authentication, no room service, no version checks, no telemetry: what
// fan-out costs on this machine with nothing else in the way.
//
// Started without the telemetry preload and imports nothing of the platform
// (its barrel alone is ~120 MB resident under tsx): the bare fan-out, in memory too.
// It hears the same frames as the BFF: it subscribes to the rooms' Redis
// channels (feed:room:*). A client's `joinRoom` (any action) is answered OK and
// adds it to the broadcast set; the heartbeat is the feed's (`primus::ping` every
// 25 s). Environment: PORT, REDIS_URL.
//
// BARE_ROOM=1 (the joins bench's `bare-room`): the least any server speaking the
// feed's protocol must do for a join, with nothing else in the way. Each joiner
// becomes a user of one room; its answer carries the room's state (`allUsers` and
// `audienceUsers`), then `updatedUserData` carries every user's data, both serialized
// once per membership (as the BFF shares them among a version's joiners); the users
// who joined in the last 100 ms go to everyone in one `userJoined` (as the room
// service's join interval gathers them). BARE_ROOM_USER_BYTES (570, about what a
// guest adds to the two messages in Spinroom's answer) sizes each user's entries.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { type WebSocket, WebSocketServer } from 'ws';

const port = Number(process.env.PORT ?? 8381);
const joined = new Set<WebSocket>();

const server = createServer((req, res) => {
  res.writeHead(req.url === '/healthz' ? 200 : 404).end();
});
const wss = new WebSocketServer({ server, path: '/primus', perMessageDeflate: false, clientTracking: false });
const room = process.env.BARE_ROOM === '1' ? bareRoom(Number(process.env.BARE_ROOM_USER_BYTES ?? 570)) : undefined;

wss.on('connection', (ws) => {
  ws.on('message', (data) => {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- ws's default binaryType 'nodebuffer' always delivers a Buffer
    const text = data.toString();
    if (text.startsWith('"primus::pong::')) return;
    const messageId = Number(/"messageId":(\d+)/.exec(text)?.[1] ?? 0);
    if (room && !joined.has(ws)) room.join(ws, messageId, /"roomUuid":"([^"]*)"/.exec(text)?.[1] ?? '');
    else ws.send(`{"context":"response","messageId":${messageId},"status":"OK"}`);
    joined.add(ws);
  });
  ws.on('close', () => joined.delete(ws));
  ws.on('error', () => ws.terminate());
});
setInterval(() => {
  const ping = JSON.stringify(`primus::ping::${Date.now()}`);
  for (const ws of joined) ws.send(ping);
}, 25_000);

const subscriber = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:16379');
await subscriber.psubscribe('feed:room:*');
subscriber.on('pmessage', (_pattern: string, _channel: string, raw: string) => {
  // A frame is `<kind>|<version>|<userUuid>|<json>` (packages/platform/src/feed.ts); the JSON goes out as is.
  const json = raw.slice(raw.indexOf('|', raw.indexOf('|', 2) + 1) + 1);
  for (const ws of joined) ws.send(json);
});

/** One room's users, kept as the JSON pieces its messages are made of. */
function bareRoom(userBytes: number) {
  const listed: string[] = [];
  const data: string[] = [];
  let fresh: string[] = [];
  let version = 0;
  let made: { version: number; state: Buffer; userData: Buffer } | undefined;
  // The joiners of each 100 ms enter together: one version, one `userJoined` to everyone.
  setInterval(() => {
    if (fresh.length === 0) return;
    version += 1;
    // Encoded once, framed per socket.
    const message = Buffer.from(`{"name":"userJoined","statePatch":[],"users":[${fresh.join(',')}]}`);
    fresh = [];
    for (const ws of joined) ws.send(message, { binary: false });
  }, 100);
  return {
    join(ws: WebSocket, messageId: number, roomUuid: string): void {
      const uuid = randomUUID();
      const entry = `{"uuid":"${uuid}","tokenRole":"guest","highestRole":"guest","canDj":false}`;
      const profile = `{"uuid":"${uuid}","nickname":"Guest ${listed.length}","avatarId":"default","color":"#9146ff","badges":[],"bio":"`;
      const pad = Math.max(0, userBytes - 2 * entry.length - profile.length - 60);
      data.push(`"${uuid}":{"userProfile":${profile}${'.'.repeat(pad)}"},"position":{"x":50,"y":50},"songVotes":{}}`);
      listed.push(entry);
      fresh.push(entry);
      // Serialized once a version, shared as bytes by that version's joiners.
      if (made?.version !== version) {
        const users = listed.join(',');
        made = {
          version,
          state: Buffer.from(`"state":{"allUsers":[${users}],"audienceUsers":[${users}],"djs":[],"nowPlaying":null,"allUserData":{}}}`),
          userData: Buffer.from(
            `{"name":"updatedUserData","statePatch":[{"op":"replace","path":"/allUserData","value":{${data.join(',')}}}]}`,
          ),
        };
      }
      const head = `{"context":"response","messageId":${messageId},"status":"OK","roomUuid":"${roomUuid}","version":${version},"serverTime":${Date.now()},`;
      ws.send(Buffer.concat([Buffer.from(head), made.state]), { binary: false });
      ws.send(made.userData, { binary: false });
    },
  };
}

server.listen(port, '127.0.0.1', () => console.log(`bare ws server on :${port}`));
process.on('SIGTERM', () => process.exit(0));
