import { execFileSync } from 'node:child_process';
import { createVerify, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@spinroom/platform/testing';

const require = createRequire(import.meta.url);

/** A browser's subscription as PushSubscription.toJSON() gives it. */
export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  clientHash: string;
}

interface WebPushTestingServer {
  startServer(): void;
  _server?: Server;
}

/**
 * web-push-testing (a Web Push service on localhost: it checks the VAPID
 * signature, decrypts the payload and keeps the messages), run in this
 * process on a port of its own. Its model is a module-level singleton: one
 * per process.
 */
export async function startWebPushStandIn() {
  const { PushApiModel } = require('web-push-testing/src/PushApiModel') as { PushApiModel: new () => object };
  const TestingServer = require('web-push-testing/src/server') as new (model: object, port: number) => WebPushTestingServer;
  const port = await freePort();
  const server = new TestingServer(new PushApiModel(), port);
  const log = console.log;
  console.log = () => undefined; // it announces its port on stdout
  server.startServer();
  await new Promise<void>((resolve) => server._server!.once('listening', () => resolve()));
  console.log = log;
  const base = `http://localhost:${port}`;
  const post = async (path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  return {
    base,
    /** A browser subscribing with the application server's public key. */
    async subscribe(applicationServerKey: string): Promise<BrowserSubscription> {
      const { status, body } = await post('/subscribe', { userVisibleOnly: 'true', applicationServerKey });
      if (status !== 200) throw new Error(`web-push-testing refused the subscription: ${JSON.stringify(body)}`);
      return body.data as BrowserSubscription;
    },
    /** The decrypted payloads the subscription received, oldest first. */
    async messages(clientHash: string): Promise<Array<Record<string, unknown>>> {
      const { status, body } = await post('/get-notifications', { clientHash });
      if (status !== 200) throw new Error(`web-push-testing: ${JSON.stringify(body)}`);
      const messages = (body.data as { messages: string[] }).messages;
      return messages.map((m) => JSON.parse(m) as Record<string, unknown>);
    },
    /** The browser unsubscribed: the service answers 410 from now on. */
    async expire(clientHash: string): Promise<void> {
      await post(`/expire-subscription/${clientHash}`);
    },
    close: () => new Promise<void>((resolve) => server._server!.close(() => resolve())),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function verifyJwt(token: string, key: KeyObject, algorithm: 'RSA-SHA256' | 'SHA256'): Record<string, unknown> | undefined {
  const [header, claims, signature] = token.split('.');
  if (!header || !claims || !signature) return undefined;
  const verifier = createVerify(algorithm).update(`${header}.${claims}`);
  const ok =
    algorithm === 'SHA256'
      ? verifier.verify({ key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))
      : verifier.verify(key, Buffer.from(signature, 'base64url'));
  return ok ? (JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as Record<string, unknown>) : undefined;
}

/**
 * FCM's HTTP v1 API and Google's OAuth token endpoint, as they answer: a
 * service account's signed JWT buys a bearer token; messages:send takes
 * {message} with that token and answers {name}, or 404 UNREGISTERED for a
 * token that no longer reaches an app.
 */
export async function startFcmStandIn() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const projectId = 'spinroom-test';
  const tokens = new Set<string>();
  const unregistered = new Set<string>();
  const received: Array<{ token: string; message: Record<string, unknown> }> = [];
  const port = await freePort();
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const reply = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(value));
      };
      if (request.method === 'POST' && request.url === '/token') {
        const form = new URLSearchParams(body);
        const claims =
          form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer'
            ? verifyJwt(form.get('assertion') ?? '', publicKey, 'RSA-SHA256')
            : undefined;
        if (!claims || claims.iss !== account.client_email)
          return reply(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
        const token = `ya29.${randomUUID()}`;
        tokens.add(token);
        return reply(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
      }
      if (request.method === 'POST' && request.url === `/v1/projects/${projectId}/messages:send`) {
        const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        if (!bearer || !tokens.has(bearer)) {
          return reply(401, {
            error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
          });
        }
        const { message } = JSON.parse(body) as { message: Record<string, unknown> & { token?: string } };
        const token = message.token ?? '';
        if (unregistered.has(token)) {
          return reply(404, {
            error: {
              code: 404,
              message: 'Requested entity was not found.',
              status: 'NOT_FOUND',
              details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }],
            },
          });
        }
        received.push({ token, message });
        return reply(200, { name: `projects/${projectId}/messages/${randomUUID()}` });
      }
      reply(404, { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${port}`;
  const account = {
    project_id: projectId,
    client_email: `spinroom@${projectId}.iam.gserviceaccount.com`,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    token_uri: `${endpoint}/token`,
  };
  return {
    endpoint,
    account,
    received,
    unregister: (token: string) => unregistered.add(token),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A self-signed certificate for 127.0.0.1 and localhost (openssl), for the stand-ins that speak TLS. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'apns-stand-in-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * APNs' HTTP/2 provider API as it answers: POST /3/device/<token> with a
 * provider token (an ES256 JWT of the team's key) and the apns-topic; 200 with
 * apns-id, 400 BadDeviceToken for a token that is not one, 410 Unregistered
 * for one that no longer reaches the app.
 */
export async function startApnsStandIn(bundleId: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const teamId = 'TEAM123456';
  const keyId = 'KEY1234567';
  const unregistered = new Set<string>();
  const received: Array<{ token: string; headers: Record<string, string>; payload: Record<string, unknown> }> = [];
  const tls = selfSignedCertificate();
  const server: Http2SecureServer = createSecureServer({ key: tls.key, cert: tls.cert });
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const apnsId = String(headers['apns-id'] ?? randomUUID());
      const reply = (status: number, reason?: string) => {
        stream.respond({ ':status': status, 'apns-id': apnsId, ...(reason ? { 'content-type': 'application/json' } : {}) });
        stream.end(reason ? JSON.stringify(status === 410 ? { reason, timestamp: Date.now() } : { reason }) : undefined);
      };
      const path = String(headers[':path'] ?? '');
      const token = /^\/3\/device\/(.+)$/.exec(path)?.[1];
      if (headers[':method'] !== 'POST' || !token) return reply(404, 'BadPath');
      const bearer = /^bearer (.+)$/i.exec(String(headers.authorization ?? ''))?.[1];
      const claims = bearer ? verifyJwt(bearer, publicKey, 'SHA256') : undefined;
      if (!claims || claims.iss !== teamId) return reply(403, 'InvalidProviderToken');
      if (headers['apns-topic'] !== bundleId) return reply(400, 'DeviceTokenNotForTopic');
      if (!/^[0-9a-f]{64}$/i.test(token)) return reply(400, 'BadDeviceToken');
      if (unregistered.has(token)) return reply(410, 'Unregistered');
      received.push({
        token,
        headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])),
        payload: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      });
      reply(200);
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${port}`,
    ca: tls.cert,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    keyId,
    teamId,
    received,
    unregister: (token: string) => unregistered.add(token),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
