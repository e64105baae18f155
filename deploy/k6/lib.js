// Shared by the k6 scenarios: the BFF's address, JSON calls, and sign-up.
import http from 'k6/http';
import { check } from 'k6';

export const BASE_URL = (__ENV.BASE_URL || 'http://localhost:8080').replace(/\/$/, '');
export const WS_URL = BASE_URL.replace(/^http/, 'ws');
export const PASSWORD = 'k6 correct horse battery';

export function json(method, path, body, token, tags = {}) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = http.request(method, `${BASE_URL}${path}`, body === undefined ? null : JSON.stringify(body), { headers, tags });
  let parsed;
  try {
    parsed = res.json();
  } catch (_) {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, res };
}

/** A new user (a unique email per run and index): { uuid, token, email }. */
export function signUp(prefix, i) {
  const email = `${prefix}-${__ENV.K6_RUN_ID || Date.now()}-${i}@k6.spinroom.local`;
  const r = json(
    'POST',
    '/api/user-service/users/sign-up',
    { email, password: PASSWORD, nickname: `${prefix} ${i}`.slice(0, 30) },
    undefined,
    { name: 'sign-up' },
  );
  check(r, { 'signed up': (x) => x.status === 201 || x.status === 200 });
  return { uuid: r.body?.userUuid, token: r.body?.accessToken, email };
}

export function song(name) {
  return {
    musicProvider: 'spotify',
    songId: `k6-${name}-${Math.random().toString(36).slice(2, 10)}`,
    trackName: `k6 ${name}`,
    artistName: 'k6 Load',
    duration: 200,
  };
}
