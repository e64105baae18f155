// `npm start`: the whole platform on this machine. Starts PostgreSQL, Redis and
// Kafka (deploy/local, profile `dev`), seeds the demo admin, runs every service
// and the BFF, and serves the web client and the API on http://localhost:$PORT.
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { SERVICE_NAMES, SERVICES, type ServiceName } from '@spinroom/platform/core';
import { infraUp, localDir, repoRoot } from './lib/infra.js';
import { managed, startServiceProcess, waitForHttp } from './lib/processes.js';
import { bffEnvironment, serviceEnvironment, STRIPE_MOCK_PORT, type LocalServices } from './lib/services.js';
import { Supervisor } from './lib/supervisor.js';
import { seedDemoCatalogue } from './seed/demo-catalogue.js';
import { seedDemoRoom } from './seed/demo-room.js';
import { seedDemoSeasons } from './seed/demo-seasons.js';
import { seedDemoShop } from './seed/demo-shop.js';
import { apiClient } from './lib/http.js';
import { ensureWebBuild } from '../web/build.js';
import { TWILIO_STAND_IN_CREDENTIALS } from '../test/support/twilio-stand-in.js';

const port = process.env.PORT ?? '8080';
// SPINROOM_BUNDLED=1: run the services as their images do (esbuild bundles,
// NODE_ENV=production) instead of from source with tsx; the k6 benchmark does.
const bundled = process.env.SPINROOM_BUNDLED === '1';
const admin = {
  email: process.env.SPINROOM_ADMIN_EMAIL ?? 'admin@spinroom.local',
  password: process.env.SPINROOM_ADMIN_PASSWORD ?? 'spinroom-admin',
};
// Internal gRPC ports of the services (loopback only): the list's, or <NAME>_GRPC_PORT.
const grpcPorts = Object.fromEntries(
  SERVICE_NAMES.map((name) => [name, process.env[`${name.toUpperCase()}_GRPC_PORT`] ?? String(SERVICES[name].grpcPort)]),
) as Record<ServiceName, string>;

// Each process serves Prometheus metrics on 127.0.0.1:<port>/metrics (the chart uses 9464 in every pod):
// the services in the list's order from METRICS_BASE_PORT, then the BFF.
const metricsBase = Number(process.env.METRICS_BASE_PORT ?? '9464');
const metrics = (index: number) => ({ METRICS_PORT: String(metricsBase + index) });

const infra = infraUp('dev');
// The web client the BFF serves: rebuilt only when its sources changed.
const webDir = ensureWebBuild((line) => console.log(line));
// WEB_URL: where people open the client (the user service's mailed links point there).
const common = { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', WEB_URL: process.env.WEB_URL ?? `http://localhost:${port}` };
const local: LocalServices = { infra, ports: grpcPorts, common };

console.log('Seeding the demo admin...');
execFileSync(process.execPath, ['--import', 'tsx', 'services/user/src/db/seed-admin.ts'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, ...serviceEnvironment('user', local), SPINROOM_ADMIN_EMAIL: admin.email, SPINROOM_ADMIN_PASSWORD: admin.password },
});

// A process that exits on its own is started again (backoff 1 s, doubling up to
// 30 s, back to 1 s after a minute's healthy run); the others keep running.
const supervisor = new Supervisor();
const supervise = (name: string, entry: string, env: Record<string, string>) =>
  supervisor.add(name, () => startServiceProcess(name, entry, env, { bundled }));
// Phone codes: Twilio itself when TWILIO_ACCOUNT_SID is set (the user service reads the TWILIO_* variables
// from this environment), else the Twilio stand-in, which prints each code to its own log ([twilio-stand-in]).
const twilioStandInPort = process.env.TWILIO_STAND_IN_PORT ?? '8190';
const twilio: Record<string, string> = process.env.TWILIO_ACCOUNT_SID
  ? {}
  : {
      TWILIO_API_URL: `http://127.0.0.1:${twilioStandInPort}`,
      TWILIO_ACCOUNT_SID: TWILIO_STAND_IN_CREDENTIALS.accountSid,
      TWILIO_AUTH_TOKEN: TWILIO_STAND_IN_CREDENTIALS.authToken,
      TWILIO_VERIFY_SERVICE_SID: TWILIO_STAND_IN_CREDENTIALS.verifyServiceSid,
    };
if (twilio.TWILIO_API_URL)
  supervisor.add('twilio-stand-in', () =>
    startServiceProcess('twilio-stand-in', 'test/support/twilio-stand-in.ts', {
      TWILIO_STAND_IN_PORT: twilioStandInPort,
      OTEL_SDK_DISABLED: 'true',
    }),
  );
// Payments: Stripe itself when STRIPE_API_BASE is set, else stripe-mock (Stripe's own mock API, built once by
// deploy/tools/install.sh) on the address the payment service is given (scripts/lib/services.ts).
if (!process.env.STRIPE_API_BASE) {
  const tools = execFileSync('bash', [join(repoRoot, 'deploy/tools/install.sh'), 'stripe-mock'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const bin = join(tools.trim().split('\n').pop() ?? join(localDir, 'tools', 'bin'), 'stripe-mock');
  supervisor.add('stripe-mock', () =>
    managed('stripe-mock', spawn(bin, ['-http-port', STRIPE_MOCK_PORT], { stdio: ['ignore', 'ignore', 'inherit'] })),
  );
}
for (const [index, name] of SERVICE_NAMES.entries())
  supervise(name, `services/${name}/src/main.ts`, {
    ...serviceEnvironment(name, local),
    ...metrics(index),
    ...(name === 'user' ? twilio : {}),
  });
supervise('bff', 'bff/src/main.ts', {
  ...bffEnvironment(local, port),
  ...metrics(SERVICE_NAMES.length),
  HTTP_HOST: process.env.HTTP_HOST ?? '127.0.0.1',
  WEB_DIR: webDir,
});

let stopping = false;
async function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  await supervisor.stop();
  console.log('Services stopped. PostgreSQL, Redis and Kafka keep running: `npm run infra:down` stops them.');
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

try {
  await waitForHttp(`http://127.0.0.1:${port}/readyz`, 120_000);
} catch (error) {
  console.error(String(error));
  await stopAll(1);
}

let demoRoom: Awaited<ReturnType<typeof seedDemoRoom>> | undefined;
try {
  demoRoom = await seedDemoRoom({
    baseUrl: `http://127.0.0.1:${port}`,
    email: admin.email,
    password: admin.password,
    log: (line) => console.log(`  ${line}`),
  });
} catch (error) {
  console.error(`Demo room not seeded: ${(error as Error).message}`);
}

let shop: Awaited<ReturnType<typeof seedDemoShop>> | undefined;
try {
  const { accessToken } = await apiClient(`http://127.0.0.1:${port}`)('POST', '/api/user-service/auth/login', undefined, admin);
  shop = await seedDemoShop({ baseUrl: `http://127.0.0.1:${port}`, token: accessToken, log: (line) => console.log(`  ${line}`) });
} catch (error) {
  console.error(`Demo shop not seeded: ${(error as Error).message}`);
}

let season: Awaited<ReturnType<typeof seedDemoSeasons>> | undefined;
try {
  const { accessToken } = await apiClient(`http://127.0.0.1:${port}`)('POST', '/api/user-service/auth/login', undefined, admin);
  season = await seedDemoSeasons({ baseUrl: `http://127.0.0.1:${port}`, token: accessToken, log: (line) => console.log(`  ${line}`) });
} catch (error) {
  console.error(`Demo season and avatars not seeded: ${(error as Error).message}`);
}

console.log('Seeding the demo catalogue (synthesized songs, uploaded and transcoded like any other)...');
let demo: Awaited<ReturnType<typeof seedDemoCatalogue>> | undefined;
try {
  demo = await seedDemoCatalogue({
    baseUrl: `http://127.0.0.1:${port}`,
    email: admin.email,
    password: admin.password,
    workDir: join(localDir, 'dev'),
    log: (line) => console.log(`  ${line}`),
  });
} catch (error) {
  // The platform works without it; say why the demo songs are missing.
  console.error(`Demo catalogue not seeded: ${(error as Error).message}`);
}
console.log(`
Spinroom is running at http://localhost:${port}
  API:        http://localhost:${port}/api/openapi.json
  Mail inbox: ${infra.MAILPIT_URL} (Mailpit: every mail the platform sends)
  Demo admin: ${admin.email} / ${admin.password}${
    demoRoom
      ? `
  Demo room:  ${demoRoom.slug} (GET /api/room-service/rooms/${demoRoom.slug})`
      : ''
  }${
    shop
      ? `
  Demo shop:  ${shop.bundles} token bundles, ${shop.consumables} consumables; the demo admin has tokens`
      : ''
  }${
    season
      ? `
  Season:     ${season.seasonName} (GET /api/merch-service/points/season-ranking), a dozen avatars`
      : ''
  }${
    demo
      ? `
  Demo songs: ${demo.songs} in the public crate ${demo.crateUuid}
              (copy it: PUT /api/playlist-service/crate/${demo.crateUuid}/copy)`
      : ''
  }
A service or the BFF that exits is restarted (backoff 1 s up to 30 s).
Press Ctrl+C to stop.
`);
