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
import { createServer } from 'node:http';
import { Redis } from 'ioredis';
import { type WebSocket, WebSocketServer } from 'ws';

const port = Number(process.env.PORT ?? 8381);
const joined = new Set<WebSocket>();

const server = createServer((req, res) => {
  res.writeHead(req.url === '/healthz' ? 200 : 404).end();
});
const wss = new WebSocketServer({ server, path: '/primus', perMessageDeflate: false, clientTracking: false });
wss.on('connection', (ws) => {
  ws.on('message', (data) => {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- ws's default binaryType 'nodebuffer' always delivers a Buffer
    const text = data.toString();
    if (text.startsWith('"primus::pong::')) return;
    const messageId = Number(/"messageId":(\d+)/.exec(text)?.[1] ?? 0);
    ws.send(`{"context":"response","messageId":${messageId},"status":"OK"}`);
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

server.listen(port, '127.0.0.1', () => console.log(`bare ws server on :${port}`));
process.on('SIGTERM', () => process.exit(0));
