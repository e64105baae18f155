// REST load: people browsing (session, profile, public rooms, a room, search,
// their queue) and signing in, against the BFF (`npm start`).
//   k6 run deploy/k6/rest.js -e BASE_URL=http://localhost:8080 [-e BROWSE_RATE=200 -e DURATION=60s]
// Thresholds are BENCHMARKS.md's targets: reads p99 < 50 ms at the browse
// rate (200 req/s there), sign-in (argon2id) p99 < 1.5 s, search p99 < 700 ms,
// and no failures.
import { check, sleep } from 'k6';
import { BASE_URL, json, PASSWORD, signUp } from './lib.js';

const DURATION = __ENV.DURATION || '60s';
const BROWSE_RATE = Number(__ENV.BROWSE_RATE || 200);
const LOGIN_RATE = Number(__ENV.LOGIN_RATE || 5);
const USERS = Number(__ENV.USERS || 20);

export const options = {
  setupTimeout: '120s',
  scenarios: {
    browse: {
      executor: 'constant-arrival-rate',
      exec: 'browse',
      rate: BROWSE_RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: 50,
      maxVUs: 200,
    },
    signIn: {
      executor: 'constant-arrival-rate',
      exec: 'signIn',
      rate: LOGIN_RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: 10,
      maxVUs: 50,
    },
  },
  thresholds: {
    'http_req_duration{kind:read}': ['p(99)<50'],
    'http_req_duration{name:login}': ['p(99)<1500'],
    'http_req_duration{name:search}': ['p(99)<700'],
    'http_req_failed{scenario:browse}': ['rate<0.001'],
    'http_req_failed{scenario:signIn}': ['rate<0.001'],
    checks: ['rate>0.999'],
  },
  summaryTrendStats: ['avg', 'med', 'p(95)', 'p(99)', 'max'],
};

export function setup() {
  const up = json('GET', '/readyz');
  if (up.status !== 200) throw new Error(`${BASE_URL} is not ready (start it with npm start)`);
  const users = [];
  for (let i = 0; i < USERS; i += 1) users.push(signUp('k6-browse', i));
  const rooms = json('GET', '/api/room-service/rooms/public?limit=20&offset=0', undefined, users[0].token).body;
  const slugs = (rooms?.rooms || rooms || []).map((r) => r.slug).filter(Boolean);
  return { users, slugs: slugs.length > 0 ? slugs : ['spinroom-lounge'] };
}

const READS = [
  () => ['/api/user-service/auth/session', 'session'],
  () => ['/api/user-service/users/profile', 'profile'],
  () => ['/api/room-service/rooms/public?limit=20&offset=0', 'public-rooms'],
  (_u, data) => [`/api/room-service/rooms/${data.slugs[Math.floor(Math.random() * data.slugs.length)]}`, 'room'],
  () => ['/api/playlist-service/crate/special/queue', 'queue'],
];

export function browse(data) {
  const user = data.users[Math.floor(Math.random() * data.users.length)];
  if (Math.random() < 0.1) {
    const r = json(
      'GET',
      `/api/playlist-service/search?q=${encodeURIComponent(['never', 'sine', 'demo', 'love'][Math.floor(Math.random() * 4)])}`,
      undefined,
      user.token,
      { name: 'search' },
    );
    check(r, { 'search 200': (x) => x.status === 200 });
    return;
  }
  const [path, name] = READS[Math.floor(Math.random() * READS.length)](user, data);
  const r = json('GET', path, undefined, user.token, { name, kind: 'read' });
  check(r, { [`${name} 200`]: (x) => x.status === 200 });
}

export function signIn(data) {
  const user = data.users[Math.floor(Math.random() * data.users.length)];
  const r = json('POST', '/api/user-service/auth/login', { email: user.email, password: PASSWORD }, undefined, { name: 'login' });
  check(r, { 'login 200': (x) => x.status === 200 && !!x.body.accessToken });
  sleep(0);
}
