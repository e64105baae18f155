// Room load over the WebSocket feed (/primus, bff/FEED.md): listeners join a
// room and vote, DJs take the stage in turn and step down (the next DJ's song
// plays), and people chat through the CometChat-compatible API.
//   k6 run deploy/k6/rooms.js -e BASE_URL=http://localhost:8080 [-e LISTENERS=200 -e DJS=4 -e DURATION=60s]
// Thresholds: joining answered p95 < 500 ms, actions answered p95 < 250 ms,
// room messages delivered p95 < 250 ms after the room service sent them
// (sentAt), every answer OK, and the feed's sockets stay up.
import { check, sleep } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import http from 'k6/http';
import ws from 'k6/ws';
import { BASE_URL, json, signUp, song, WS_URL } from './lib.js';

const DURATION = __ENV.DURATION || '60s';
const LISTENERS = Number(__ENV.LISTENERS || 200);
const DJS = Number(__ENV.DJS || 4);
const CHATTERS = Number(__ENV.CHATTERS || 5);
const seconds = (d) => Number(String(d).replace(/s$/, ''));

const joinMs = new Trend('feed_join_ms', true);
const actionMs = new Trend('feed_action_ms', true);
const deliveryMs = new Trend('feed_delivery_ms', true);
const frames = new Counter('feed_frames');
const refused = new Counter('feed_actions_refused');

export const options = {
  setupTimeout: '300s',
  scenarios: {
    listeners: {
      executor: 'per-vu-iterations',
      exec: 'listener',
      vus: LISTENERS,
      iterations: 1,
      maxDuration: `${seconds(DURATION) + 30}s`,
    },
    djs: { executor: 'per-vu-iterations', exec: 'dj', vus: DJS, iterations: 1, maxDuration: `${seconds(DURATION) + 30}s` },
    chat: {
      executor: 'constant-arrival-rate',
      exec: 'chat',
      rate: CHATTERS,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: 5,
      maxVUs: 20,
    },
  },
  thresholds: {
    feed_join_ms: ['p(95)<500'],
    feed_action_ms: ['p(95)<250'],
    feed_delivery_ms: ['p(95)<250'],
    'checks{scenario:listeners}': ['rate>0.99'],
    'checks{scenario:djs}': ['rate>0.99'],
    'http_req_failed{scenario:chat}': ['rate<0.01'],
  },
  summaryTrendStats: ['avg', 'med', 'p(95)', 'p(99)', 'max'],
};

export function setup() {
  const owner = signUp('k6-owner', 0);
  const room = json(
    'POST',
    '/api/room-service/rooms/infrastructure',
    { name: `k6 room ${Date.now()}`, numberOfDjs: Math.max(DJS, 1), songsPerDj: 1 },
    owner.token,
    { name: 'create-room' },
  );
  if (room.status !== 201) throw new Error(`room not created: ${room.status} ${JSON.stringify(room.body)}`);
  const djs = [];
  for (let i = 0; i < DJS; i += 1) {
    const dj = signUp('k6-dj', i);
    for (let s = 0; s < 3; s += 1)
      json('POST', '/api/playlist-service/crate/special/queue/songs', { songs: [song(`dj${i}-${s}`)] }, dj.token, { name: 'queue-song' });
    djs.push(dj);
  }
  const listeners = [];
  for (let i = 0; i < LISTENERS; i += 1) listeners.push(signUp('k6-listener', i));
  const chatters = [];
  for (let i = 0; i < Math.min(CHATTERS, LISTENERS); i += 1) {
    const token = json('GET', '/api/user-service/comet-chat/user-token', undefined, listeners[i].token, { name: 'chat-token' }).body
      .cometAuthToken;
    chatCall('POST', `/v3.0/groups/${room.body.uuid}/members`, token, {});
    chatters.push(token);
  }
  return { roomUuid: room.body.uuid, djs, listeners, chatters };
}

/** The CometChat-compatible API (`/chat`) with a chat token. */
function chatCall(method, path, token, body) {
  return http.request(method, `${BASE_URL}/chat${path}`, body === undefined ? null : JSON.stringify(body), {
    headers: { 'content-type': 'application/json', appid: 'spinroom', authtoken: token },
    tags: { name: `chat ${path.includes('/members') ? 'join' : 'message'}` },
  });
}

/** A feed connection that joins the room, answers pings, times answers and deliveries, and runs `behave` once joined. */
function inRoom(token, roomUuid, stayMs, behave) {
  let messageId = 0;
  const pending = {};
  const res = ws.connect(`${WS_URL}/primus?token=${encodeURIComponent(token)}`, {}, (socket) => {
    const send = (action, params = {}, onAnswer) => {
      messageId += 1;
      pending[messageId] = { at: Date.now(), action, onAnswer };
      socket.send(JSON.stringify({ event: 'action', params: { action, roomUuid, ...params }, messageId }));
    };
    socket.on('open', () => {
      send('joinRoom', {}, (answer) => {
        check(answer, { 'joined the room': (a) => a.status === 'OK' && a.state !== undefined });
        behave(socket, send);
      });
    });
    socket.on('message', (raw) => {
      const message = JSON.parse(raw);
      if (typeof message === 'string') {
        if (message.startsWith('primus::ping::')) socket.send(JSON.stringify(message.replace('ping', 'pong')));
        return;
      }
      if (message.context === 'response') {
        const asked = pending[message.messageId];
        if (!asked) return;
        delete pending[message.messageId];
        (asked.action === 'joinRoom' ? joinMs : actionMs).add(Date.now() - asked.at);
        if (message.error) refused.add(1, { action: asked.action });
        if (asked.onAnswer) asked.onAnswer(message);
        return;
      }
      if (message.context === 'user' && typeof message.sentAt === 'number') {
        frames.add(1);
        deliveryMs.add(Date.now() - message.sentAt);
      }
    });
    socket.on('error', (e) => check(e, { 'no socket error': () => false }));
    socket.setTimeout(() => socket.close(), stayMs);
  });
  check(res, { 'feed upgraded (101)': (r) => r && r.status === 101 });
}

export function listener(data) {
  const me = data.listeners[(__VU - 1) % data.listeners.length];
  sleep(Math.random() * 5); // people arrive over a few seconds
  inRoom(me.token, data.roomUuid, seconds(DURATION) * 1000, (socket, send) => {
    socket.setInterval(
      () => {
        if (Math.random() < 0.3) send('voteOnSong', { songVotes: { like: Math.random() < 0.8 } });
        else if (Math.random() < 0.1) send('playOneTimeAnimation', { animation: 'jump' });
      },
      5000 + Math.random() * 5000,
    );
  });
}

export function dj(data) {
  const me = data.djs[(__VU - 1) % data.djs.length];
  sleep(5 + Math.random() * 2); // after the first listeners
  inRoom(me.token, data.roomUuid, seconds(DURATION) * 1000, (socket, send) => {
    // On stage for a while, then step down: the next DJ's song plays. Then back in line.
    let onStage = false;
    const turn = () => {
      send(onStage ? 'removeDj' : 'addDj', {}, (answer) => {
        check(answer, { 'DJ turn taken': (a) => a.status === 'OK' || /seat|already|not a DJ/i.test(a.error || '') });
      });
      onStage = !onStage;
    };
    turn();
    socket.setInterval(turn, 8000 + Math.random() * 4000);
  });
}

export function chat(data) {
  if (data.chatters.length === 0) return;
  const token = data.chatters[Math.floor(Math.random() * data.chatters.length)];
  const text = `k6 says hi ${Math.random().toString(36).slice(2, 8)}`;
  const r = chatCall('POST', '/v3.0/messages', token, {
    type: 'text',
    receiverType: 'group',
    category: 'message',
    receiver: data.roomUuid,
    data: { text, metadata: { chatMessage: { message: text } } },
  });
  check(r, { 'chat message sent': (x) => x.status === 200 });
}
