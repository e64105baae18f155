// The platform from its images: deploy/docker/build-images.sh builds every
// image with podman, then every service, the BFF and the web client run as
// containers on a private podman network, configured as the Helm chart
// configures them (`helm template`: each Deployment's env, Secret references,
// securityContext, volumes and grace period; the migration Jobs' and the
// Kafka topics Job's commands), and a listener hears an uploaded song through
// the BFF container.
//
// Infrastructure: the profile's PostgreSQL and Redis (loopback only) are
// reached through forwarders (a process of their own) on the network's
// gateway (host.containers.internal), whose bridge keeps one MAC address;
// Kafka is a broker of this test's own from the
// profile's Kafka jars, listening on the gateway, because a broker announces
// its own address and the profile's announces 127.0.0.1. The topics Job's
// script runs on the host with Kafka's tools from those jars (the chart's
// apache/kafka tools image cannot be pulled here).
//
// Builds take minutes, so `npm test` leaves this file to a second command,
// which .ci/run runs after it:
//   SPINROOM_IMAGE_TEST=1 npm test -- test/deploy/containers.test.ts
// It skips, saying why, where podman is not installed and cannot be.
import { type ChildProcess, execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { createDecipheriv, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eventually } from '@spinroom/platform/testing';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { FeedListener } from '../support/feed-client.js';

type Json = any;
const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const localDir = process.env.SPINROOM_LOCAL_DIR ?? join(repoRoot, '.local');
const helm = process.env.HELM_BIN ?? join(localDir, 'tools/bin/helm');
const containersConf = join(localDir, 'containers/containers.conf');
const TAG = 'container-test';
const REGISTRY = 'localhost/spinroom';
const podmanEnv = { ...process.env, CONTAINERS_CONF: containersConf };
/** The target for every image (issue 22), in MB (10^6 bytes, as podman counts); BENCHMARKS.md, "Container images". */
const SIZE_TARGET_MB = 250;

/** Why this machine cannot run the test (undefined: it can). Installs podman from Debian's packages when it is missing. */
function unavailable(): string | undefined {
  if (process.env.SPINROOM_IMAGE_TEST !== '1')
    return 'builds every image: run by `SPINROOM_IMAGE_TEST=1 npm test -- test/deploy/containers.test.ts` (.ci/run does)';
  if (process.platform !== 'linux') return 'not Linux';
  if (!process.env.PG_ADMIN_URL || !process.env.REDIS_URL) return 'no PG_ADMIN_URL / REDIS_URL (run through npm run test:images)';
  if (!existsSync(helm)) return `helm is not installed at ${helm} (bash deploy/tools/install.sh helm)`;
  const install = spawnSync('bash', [join(repoRoot, 'deploy/tools/install.sh'), 'podman'], { encoding: 'utf8' });
  if (install.status !== 0)
    return `podman could not be installed: ${(install.stderr || install.stdout).trim().split('\n').slice(-3).join(' ')}`;
  const version = spawnSync('podman', ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) return 'podman does not run';
  if (!kafkaLibs()) return `no Kafka jars under ${join(localDir, 'kafka-dist')} (deploy/local/up.sh fetches them)`;
  if (spawnSync('java', ['-version']).status !== 0) return 'no java for the test broker';
  if (spawnSync('ffmpeg', ['-version']).status !== 0) return 'no ffmpeg for the test song';
  return undefined;
}

function kafkaLibs(): string | undefined {
  const dist = join(localDir, 'kafka-dist');
  if (!existsSync(dist)) return undefined;
  const version = readdirSync(dist).find((v) => existsSync(join(dist, v, '.complete')));
  return version ? join(dist, version, 'libs') : undefined;
}

const podman = async (...args: string[]) => (await run('podman', args, { env: podmanEnv, maxBuffer: 64 * 1024 * 1024 })).stdout.trim();

/** A TCP forwarder on the gateway to a loopback port of the host. */
/** A TCP forwarder, host:0 -> 127.0.0.1:target: prints its port, then pipes every connection. */
const FORWARDER = `
const net = require('node:net');
const [host, target] = process.argv.slice(1);
const server = net.createServer((socket) => {
  const upstream = net.connect(Number(target), '127.0.0.1');
  socket.pipe(upstream).pipe(socket);
  const close = () => { socket.destroy(); upstream.destroy(); };
  socket.on('error', close);
  upstream.on('error', close);
});
server.listen(0, host, () => process.stdout.write(server.address().port + '\\n'));
`;

interface Forwarder {
  port: number;
  close(): void;
}

/**
 * Forwards host:<port> to 127.0.0.1:target from a process of its own, so the
 * containers' database and Redis traffic never waits on this test's own
 * event loop (a synchronous podman call here would hold every connection).
 */
function forward(host: string, target: number): Promise<Forwarder> {
  const child = spawn(process.execPath, ['-e', FORWARDER, host, String(target)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the forwarder to ${target} exited (${code})`)));
    child.stdout.once('data', (data) => resolve({ port: Number(String(data).trim()), close: () => child.kill() }));
  });
}

function freePort(host: string): Promise<number> {
  const server = createServer();
  return new Promise((resolve, reject) =>
    server.once('error', reject).listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    }),
  );
}

interface Rendered {
  secret: Record<string, string>;
  deployments: Json[];
  migrations: Json[];
  topicsJob: Json;
}

function render(release: string, values: Record<string, unknown>): Rendered {
  const work = mkdtempSync(join(tmpdir(), 'spinroom-ct-values-'));
  try {
    writeFileSync(join(work, 'values.json'), JSON.stringify(values));
    const out = execFileSync(
      helm,
      ['template', release, join(repoRoot, 'helm/spinroom'), '--kube-version', '1.31.0', '-f', join(work, 'values.json')],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const docs = parseAllDocuments(out)
      .map((d) => d.toJSON())
      .filter(Boolean);
    const secretDoc = docs.find((d) => d.kind === 'Secret');
    const secret: Record<string, string> = { ...(secretDoc.stringData ?? {}) };
    for (const [k, v] of Object.entries(secretDoc.data ?? {})) secret[k] = Buffer.from(String(v), 'base64').toString('utf8');
    const jobs = docs.filter((d) => d.kind === 'Job');
    return {
      secret,
      deployments: docs.filter((d) => d.kind === 'Deployment'),
      migrations: jobs.filter((j) => j.spec.template.spec.containers[0].name === 'migrate'),
      topicsJob: jobs.find((j) => j.spec.template.spec.containers[0].name === 'topics'),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** `podman run` flags for a pod template's one container, as Kubernetes would run it. */
function runFlags(name: string, podSpec: Json, secret: Record<string, string>, network: string, label: string): string[] {
  const container = podSpec.containers[0];
  const pod = podSpec.securityContext ?? {};
  const sc = container.securityContext ?? {};
  const flags = ['--name', name, '--network', network, '--label', label, '--pull', 'never'];
  if (pod.runAsUser !== undefined) flags.push('--user', `${pod.runAsUser}:${pod.runAsGroup ?? pod.runAsUser}`);
  if (pod.fsGroup !== undefined) flags.push('--group-add', String(pod.fsGroup));
  // A read-only root, and nothing writable but the pod's volumes (podman would add tmpfs on /tmp, /run and /var/tmp).
  if (sc.readOnlyRootFilesystem) flags.push('--read-only', '--read-only-tmpfs=false');
  for (const cap of sc.capabilities?.drop ?? []) flags.push('--cap-drop', cap);
  if (sc.allowPrivilegeEscalation === false) flags.push('--security-opt', 'no-new-privileges');
  const volumes = new Map<string, Json>((podSpec.volumes ?? []).map((v: Json) => [v.name, v]));
  for (const mount of container.volumeMounts ?? []) {
    const volume = volumes.get(mount.name);
    if (!volume?.emptyDir) throw new Error(`${name}: volume ${mount.name} is not an emptyDir`);
    flags.push('--tmpfs', `${mount.mountPath}:rw,nosuid,nodev,mode=1777`);
  }
  flags.push('--stop-timeout', String(podSpec.terminationGracePeriodSeconds ?? 30));
  for (const env of container.env ?? []) {
    let value: string | undefined = env.value;
    const ref = env.valueFrom?.secretKeyRef;
    if (ref) {
      value = secret[ref.key];
      if (value === undefined && !ref.optional) throw new Error(`${name}: the Secret has no ${ref.key}`);
    }
    if (value !== undefined) flags.push('--env', `${env.name}=${value}`);
  }
  if (container.command) flags.push('--entrypoint', JSON.stringify(container.command));
  return flags;
}

/** A test tone (MP3) from ffmpeg's synthesizer. */
function tone(dir: string, seconds: number): Buffer {
  const path = join(dir, `${randomUUID()}.mp3`);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-c:a', 'libmp3lame', path]);
  return readFileSync(path);
}

const skip = unavailable();
if (skip) console.log(`test/deploy/containers.test.ts skipped: ${skip}`);

/** The chart's components with a database (values.yaml). */
function databaseComponents(): string[] {
  const values = parseAllDocuments(readFileSync(join(repoRoot, 'helm/spinroom/values.yaml'), 'utf8'))[0]!.toJSON();
  return Object.entries(values.components as Record<string, { database?: string }>)
    .filter(([, c]) => c.database)
    .map(([name]) => name);
}

describe.skipIf(skip !== undefined)('the platform from its container images', () => {
  const id = randomBytes(3).toString('hex');
  const release = `ct${id}`;
  const network = `spinroom-${release}`;
  const label = `spinroom-container-test=${release}`;
  const work = mkdtempSync(join(tmpdir(), 'spinroom-ct-'));
  const databases: string[] = [];
  const forwarders: Forwarder[] = [];
  /** Containers started, in order: name and their pod spec. */
  const started: Array<{ name: string; podSpec: Json }> = [];
  let kafka: ChildProcess | undefined;
  let bffUrl = '';
  let webUrl = '';
  const builds: Array<{ component: string; image: string; bytes: number; ms: number }> = [];
  const timings: Record<string, number> = {};
  const jwtPrivateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const shared = {
    serviceClientSecret: randomBytes(24).toString('hex'),
    hlsKeySecret: randomBytes(24).toString('hex'),
    transcoderCallbackSecret: randomBytes(24).toString('hex'),
  };

  const values = (gateway: string, ports: { postgres: number; redis: number; kafka: number }) => {
    const pgAdmin = new URL(process.env.PG_ADMIN_URL!);
    const databaseUrls: Record<string, string> = {};
    for (const name of databaseComponents()) {
      const url = new URL(pgAdmin);
      url.hostname = gateway;
      url.port = String(ports.postgres);
      url.pathname = `/${release}_${name}`;
      databaseUrls[name] = url.toString();
    }
    const redis = new URL(process.env.REDIS_URL!);
    redis.hostname = gateway;
    redis.port = String(ports.redis);
    return {
      image: { registry: REGISTRY, tag: TAG, pullPolicy: 'Never' },
      singleReplica: true,
      networkPolicy: { enabled: false },
      logLevel: 'info',
      kafka: { brokers: `${gateway}:${ports.kafka}`, replicationFactor: 1 },
      secrets: { jwtPrivateKey, ...shared, redisUrl: redis.toString(), databaseUrls },
    };
  };

  const logsOf = async (name: string) => {
    try {
      const out = await run('podman', ['logs', '--tail', '30', name], { env: podmanEnv, maxBuffer: 16 * 1024 * 1024 });
      return `${out.stdout}${out.stderr}`;
    } catch (error) {
      return String(error);
    }
  };

  /** Until the image's HEALTHCHECK passes (or the container has exited). */
  const healthy = async (name: string) => {
    const deadline = Date.now() + 180_000;
    for (;;) {
      const state = await podman('inspect', '--format', '{{.State.Status}}', name);
      if (state !== 'running') throw new Error(`${name} is ${state}:\n${await logsOf(name)}`);
      if (
        await podman('healthcheck', 'run', name).then(
          () => true,
          () => false,
        )
      )
        return;
      if (Date.now() > deadline) throw new Error(`${name} did not become healthy:\n${await logsOf(name)}`);
      await new Promise((r) => setTimeout(r, 1_000));
    }
  };

  /** Starts a Deployment's pod as one container on the network. */
  const start = async (deployment: Json, secret: Record<string, string>, publish?: number) => {
    const podSpec = deployment.spec.template.spec;
    const name = deployment.metadata.name as string;
    // A Node diagnostic report (libuv handles, stacks) on SIGUSR2, for a container that outlives its grace period
    // (without the sockets' reverse DNS lookups, which block the process for seconds on the network's DNS).
    const flags = [
      ...runFlags(name, podSpec, secret, network, label),
      '--env',
      'NODE_OPTIONS=--report-on-signal --report-directory=/tmp --report-exclude-network',
    ];
    started.push({ name, podSpec });
    await podman(
      'run',
      '-d',
      ...(publish ? ['--publish', `127.0.0.1::${publish}`] : []),
      ...flags,
      podSpec.containers[0].image,
      ...(podSpec.containers[0].args ?? []),
    );
    return name;
  };

  const hostPort = async (name: string, port: number) => {
    const answer = await podman('port', name, `${port}/tcp`);
    return Number(answer.split('\n')[0]!.split(':').pop());
  };

  beforeAll(async () => {
    let t0 = Date.now();
    // Every image, as an operator builds them.
    const report = join(work, 'build.jsonl');
    const build = spawnSync('bash', [join(repoRoot, 'deploy/docker/build-images.sh')], {
      cwd: repoRoot,
      env: { ...process.env, REGISTRY, TAG, SPINROOM_BUILD_REPORT: report },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (build.status !== 0) throw new Error(`deploy/docker/build-images.sh failed (exit ${build.status})`);
    for (const line of readFileSync(report, 'utf8').trim().split('\n')) builds.push(JSON.parse(line));
    timings.build = Date.now() - t0;

    t0 = Date.now();
    await podman('network', 'create', '--label', label, network);
    const gateway = JSON.parse(await podman('network', 'inspect', network))[0].subnets[0].gateway as string;
    // The web client needs no infrastructure: it starts first, and brings up the network's bridge, where the gateway's address is.
    const first = render(release, values(gateway, { postgres: 1, redis: 1, kafka: 1 }));
    const webDeployment = first.deployments.find((d) => d.metadata.labels['app.kubernetes.io/component'] === 'web');
    const web = await start(webDeployment, first.secret, 8080);
    webUrl = `http://127.0.0.1:${await hostPort(web, 8080)}`;
    // A Linux bridge takes the lowest MAC address of its ports: each container that joins can change the gateway's
    // MAC, and the containers already running then send to the old one (dropped) until their ARP entry is renewed,
    // up to a minute of stalled PostgreSQL, Redis and Kafka traffic (the first sign-up timed out). An address set
    // explicitly stays put.
    const bridge = JSON.parse(await podman('network', 'inspect', network))[0].network_interface as string;
    const mac = readFileSync(`/sys/class/net/${bridge}/address`, 'utf8').trim();
    await run('ip', ['link', 'set', 'dev', bridge, 'address', mac]);

    const postgres = await forward(gateway, Number(new URL(process.env.PG_ADMIN_URL!).port));
    const redis = await forward(gateway, Number(new URL(process.env.REDIS_URL!).port));
    forwarders.push(postgres, redis);

    // This test's own Kafka broker, on the gateway.
    const kafkaDir = join(work, 'kafka');
    mkdirSync(join(kafkaDir, 'data'), { recursive: true });
    const kafkaPort = await freePort(gateway);
    const controllerPort = await freePort('127.0.0.1');
    writeFileSync(
      join(kafkaDir, 'server.properties'),
      [
        'node.id=1',
        'process.roles=broker,controller',
        `listeners=PLAINTEXT://${gateway}:${kafkaPort},CONTROLLER://127.0.0.1:${controllerPort}`,
        `advertised.listeners=PLAINTEXT://${gateway}:${kafkaPort}`,
        'controller.listener.names=CONTROLLER',
        'inter.broker.listener.name=PLAINTEXT',
        'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
        `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
        `log.dirs=${join(kafkaDir, 'data')}`,
        'num.partitions=3',
        'offsets.topic.replication.factor=1',
        'transaction.state.log.replication.factor=1',
        'transaction.state.log.min.isr=1',
        'share.coordinator.state.topic.replication.factor=1',
        'share.coordinator.state.topic.min.isr=1',
        'group.initial.rebalance.delay.ms=0',
        '',
      ].join('\n'),
    );
    const libs = kafkaLibs()!;
    const jvm = ['-Xms128m', '-Xmx512m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];
    const log4j = `-Dlog4j2.configurationFile=${join(repoRoot, 'deploy/local/kafka/tools-log4j2.properties')}`;
    execFileSync(
      'java',
      [
        ...jvm,
        log4j,
        '-cp',
        `${libs}/*`,
        'kafka.tools.StorageTool',
        'format',
        '-t',
        randomBytes(16).toString('base64url').slice(0, 22),
        '-c',
        join(kafkaDir, 'server.properties'),
      ],
      { stdio: 'pipe' },
    );
    kafka = spawn(
      'java',
      [
        ...jvm,
        `-Dlog4j2.configurationFile=${join(repoRoot, 'deploy/local/kafka/log4j2.properties')}`,
        '-cp',
        `${libs}/*`,
        'kafka.Kafka',
        join(kafkaDir, 'server.properties'),
      ],
      {
        stdio: ['ignore', 'ignore', 'ignore'],
      },
    );

    // The databases the chart's Secret names (an operator makes them; the migration Jobs fill them).
    const admin = new pg.Client({ connectionString: process.env.PG_ADMIN_URL });
    await admin.connect();
    try {
      for (const name of databaseComponents()) {
        await admin.query(`create database "${release}_${name}"`);
        databases.push(`${release}_${name}`);
      }
    } finally {
      await admin.end();
    }

    const chart = render(release, values(gateway, { postgres: postgres.port, redis: redis.port, kafka: kafkaPort }));
    timings.infra = Date.now() - t0;

    // The topics Job's script, with Kafka's own tools (from the profile's jars) where the tools image has them.
    t0 = Date.now();
    const bin = join(work, 'kafka-bin');
    mkdirSync(bin);
    for (const [script, cls] of [
      ['kafka-topics.sh', 'TopicCommand'],
      ['kafka-configs.sh', 'kafka.admin.ConfigCommand'],
      ['kafka-broker-api-versions.sh', 'BrokerApiVersionsCommand'],
    ]) {
      writeFileSync(
        join(bin, script!),
        `#!/usr/bin/env bash\nexec bash ${JSON.stringify(join(repoRoot, 'deploy/local/kafka-tool.sh'))} ${cls} "$@"\n`,
      );
      chmodSync(join(bin, script!), 0o755);
    }
    const topics = chart.topicsJob.spec.template.spec.containers[0];
    expect(topics.command).toEqual(['/bin/bash', '-ec']);
    const script = (topics.args[0] as string).replace('bin=/opt/kafka/bin', `bin=${bin}`);
    const brokers = topics.env.find((e: Json) => e.name === 'BROKERS').value;
    await run('timeout', ['300', 'bash', '-ec', script], { env: { ...process.env, BROKERS: brokers } });
    timings.topics = Date.now() - t0;

    // The migration Jobs, as the chart runs them (each to completion).
    t0 = Date.now();
    await Promise.all(
      chart.migrations.map(async (job: Json) => {
        const podSpec = job.spec.template.spec;
        const flags = runFlags(job.metadata.name, podSpec, chart.secret, network, label);
        try {
          await podman('run', '--rm', ...flags, podSpec.containers[0].image, ...(podSpec.containers[0].args ?? []));
        } catch (error) {
          throw new Error(`${job.metadata.name} failed: ${(error as { stderr?: string }).stderr ?? error}`);
        }
      }),
    );
    timings.migrations = Date.now() - t0;

    // The Deployments: the user service (whose key every other verifies tokens with), then the other services, then the BFF.
    t0 = Date.now();
    const component = (d: Json) => d.metadata.labels['app.kubernetes.io/component'] as string;
    const services = chart.deployments.filter((d) => !['web', 'bff'].includes(component(d)));
    const user = services.find((d) => component(d) === 'user');
    await healthy(await start(user, chart.secret));
    const rest = services.filter((d) => d !== user);
    const names = [];
    for (const d of rest) names.push(await start(d, chart.secret));
    for (const name of names) await healthy(name);
    const bff = await start(
      chart.deployments.find((d) => component(d) === 'bff'),
      chart.secret,
      8080,
    );
    await healthy(bff);
    await healthy(web);
    bffUrl = `http://127.0.0.1:${await hostPort(bff, 8080)}`;
    await eventually(async () => ((await fetch(`${bffUrl}/readyz`)).status === 200 ? true : undefined), 60_000, 500);
    timings.start = Date.now() - t0;
    console.log(`containers: ${JSON.stringify(timings)}`);
  }, 3_600_000);

  // A failed step shows what every container logged: CI keeps no containers to look into afterwards.
  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    for (const { name } of started) {
      // What each process is doing right now: its JavaScript stack and its pending libuv handles (Node's report on SIGUSR2).
      await podman('kill', '--signal', 'SIGUSR2', name).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 1_000));
      const report = await podman('exec', name, 'sh', '-c', 'cat /tmp/report.*.json; rm -f /tmp/report.*.json').catch(() => '');
      let summary = '';
      if (report) writeFileSync(join(repoRoot, '.local', `failure-report-${name}.json`), report);
      try {
        const parsed = JSON.parse(report);
        const handles = (parsed.libuv as Array<{ type: string; is_active: boolean; remoteEndpoint?: { host: string; port: number } }>)
          .filter((h) => h.is_active)
          .map((h) => `${h.type}${h.remoteEndpoint ? ` ${h.remoteEndpoint.host}:${h.remoteEndpoint.port}` : ''}`);
        summary = `stack: ${parsed.javascriptStack?.message}\n${(parsed.javascriptStack?.stack ?? []).join('\n')}\nactive handles: ${handles.join(', ')}\nuptime ${parsed.header?.wallClockTime} cpu ${JSON.stringify(parsed.resourceUsage?.cpuConsumptionPercent)} threadpool ${JSON.stringify(parsed.uvthreadResourceUsage)}`;
      } catch {
        summary = 'no report';
      }
      // Each thread's name, kernel wait and system call (libuv's pool threads stuck in a lookup show here), and the open sockets.
      const threads = await podman(
        'exec',
        name,
        'sh',
        '-c',
        'for t in /proc/1/task/*; do echo "$(cat $t/comm) $(cat $t/wchan) $(cat $t/syscall)"; done; ls -l /proc/1/fd | grep -c socket; cat /proc/1/net/udp',
      ).catch((e) => String(e));
      console.log(`--- ${name}\n${await logsOf(name)}\n${summary}\nthreads:\n${threads}`);
    }
    // What the services' PostgreSQL sessions wait on (a lock, a client), and for how long.
    const admin = new pg.Client({ connectionString: process.env.PG_ADMIN_URL });
    await admin.connect();
    const { rows } = await admin.query(
      `select datname, state, wait_event_type, wait_event, now() - xact_start as in_transaction, left(query, 160) as query
         from pg_stat_activity where datname like $1 or (datname is null and backend_type = 'client backend') order by datname`,
      [`${release}_%`],
    );
    await admin.end();
    const users = new pg.Client({
      connectionString: Object.assign(new URL(process.env.PG_ADMIN_URL!), { pathname: `/${release}_user` }).toString(),
    });
    await users.connect();
    const accounts = await users.query(`select email, created_at from user_account order by created_at desc limit 3`);
    const outbox = await users.query(
      `select count(*) filter (where published_at is null) as unpublished, count(*) as rows from outbox_message`,
    );
    await users.end();
    console.log(`--- the user service's newest accounts\n${JSON.stringify(accounts.rows)}\noutbox ${JSON.stringify(outbox.rows)}`);
    console.log(`--- forwarders (host side): postgres ${forwarders[0]?.port}, redis ${forwarders[1]?.port}`);
    console.log(`--- PostgreSQL sessions\n${rows.map((r) => JSON.stringify(r)).join('\n')}`);
  });

  afterAll(async () => {
    for (const { name } of [...started].reverse()) await podman('rm', '-f', '-t', '0', name).catch(() => undefined);
    await podman('network', 'rm', '-f', network).catch(() => undefined);
    kafka?.kill('SIGKILL');
    for (const f of forwarders) f.close();
    if (databases.length) {
      const admin = new pg.Client({ connectionString: process.env.PG_ADMIN_URL });
      await admin.connect();
      for (const db of databases) await admin.query(`drop database if exists "${db}" with (force)`).catch(() => undefined);
      await admin.end();
    }
    rmSync(work, { recursive: true, force: true });
  }, 180_000);

  it('builds every service, the BFF and the web client, each image within its size, to run as a non-root user', async () => {
    const expected = [
      ...readdirSync(join(repoRoot, 'services')).filter((d) => existsSync(join(repoRoot, 'services', d, 'package.json'))),
      'bff',
      'web',
    ];
    expect(builds.map((b) => b.component).sort()).toEqual(expected.sort());
    for (const b of builds) {
      console.log(`${b.image}: ${(b.bytes / 1e6).toFixed(1)} MB, built in ${(b.ms / 1000).toFixed(1)} s`);
      expect(b.bytes / 1e6, b.image).toBeLessThan(SIZE_TARGET_MB);
      const user = await podman('image', 'inspect', '--format', '{{.Config.User}}', b.image);
      expect(user, b.image).toMatch(/^[1-9]\d*(:\d+)?$/);
    }
  }, 60_000);

  it('runs every container as the chart says: its non-root user, a read-only root filesystem, no capabilities', async () => {
    expect(started.map((s) => s.name).sort()).toEqual([...builds.map((b) => `${release}-spinroom-${b.component}`)].sort());
    for (const { name, podSpec } of started) {
      expect(await podman('exec', name, 'id', '-u'), name).toBe(String(podSpec.securityContext.runAsUser));
      expect(await podman('inspect', '--format', '{{.HostConfig.ReadonlyRootfs}}', name), name).toBe('true');
      const write = await run('podman', ['exec', name, 'touch', '/app-write-test'], { env: podmanEnv }).then(
        () => ({ status: 0, stderr: '' }),
        (error: { code?: number; stderr?: string }) => ({ status: error.code ?? 1, stderr: String(error.stderr) }),
      );
      expect(write.status, name).not.toBe(0);
      expect(write.stderr, name).toMatch(/Read-only file system/);
      const capabilities = await podman('exec', name, 'grep', 'CapEff', '/proc/self/status');
      expect(capabilities, name).toMatch(/CapEff:\s+0+$/);
    }
  }, 120_000);

  it('serves the web client from its image', async () => {
    const index = await fetch(`${webUrl}/`);
    expect(index.status).toBe(200);
    const html = await index.text();
    expect(html).toMatch(/<script type="module"[^>]* src="\/assets\//);
    const asset = html.match(/src="(\/assets\/[^"]+\.js)"/)![1]!;
    const js = await fetch(`${webUrl}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // A client route falls back to index.html.
    expect((await fetch(`${webUrl}/room/somewhere`)).status).toBe(200);
  });

  it('signs up, geolocates, creates a room, uploads a song transcoded in the upload container, and a listener hears it over the published client', async () => {
    const call = async (method: string, path: string, options: { token?: string; body?: unknown } = {}) => {
      const res = await fetch(`${bffUrl}${path}`, {
        method,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.body ? { 'content-type': 'application/json' } : {}),
        },
        body: options.body ? JSON.stringify(options.body) : undefined,
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    };
    const signUp = await call('POST', '/api/user-service/users/sign-up', {
      body: { email: `ct-${randomUUID()}@example.com`, password: 'correct horse battery', nickname: 'Container' },
    });
    expect(signUp.status).toBe(201);
    const { accessToken: token, userUuid } = signUp.body;

    // The audit image's geoip-lite database, packed in the image and unpacked into the pod's /tmp at start.
    const city = await call('POST', '/api/audit-service/geolocate', { token, body: { ip: '81.2.69.142' } });
    expect(city.body).toMatchObject({ found: true, country: 'GB', city: 'Newmarket', timezone: 'Europe/London' });
    const v6 = await call('POST', '/api/audit-service/geolocate', { token, body: { ip: '2001:4860:4860::8888' } });
    expect(v6.body).toMatchObject({ found: true, country: 'US' });

    const room = await call('POST', '/api/room-service/rooms/infrastructure', { token, body: { name: `Containers ${release}` } });
    expect(room.status).toBe(201);

    const form = new FormData();
    form.append('trackName', 'Container tone');
    form.append('artistName', 'Podman');
    form.append('file', new Blob([new Uint8Array(tone(work, 12))], { type: 'audio/mpeg' }), 'tone.mp3');
    const uploaded = await fetch(`${bffUrl}/api/upload-service/upload/song`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const { songId } = (await uploaded.json()) as { songId: string };
    // Transcoded by ffmpeg in the upload container, then announced over Kafka to the playlist service's catalogue.
    const song = await eventually(
      async () => {
        const answer = await call('GET', `/api/upload-service/songs/${songId}`, { token });
        if (answer.body?.status === 'FAILED') throw new Error(`transcoding failed: ${JSON.stringify(answer.body)}`);
        return answer.body?.status === 'VERIFIED' ? answer.body : undefined;
      },
      90_000,
      500,
    );
    expect(song).toMatchObject({ songId, trackName: 'Container tone', duration: 12, uploaderUuid: userUuid });
    await eventually(
      async () =>
        (await call('GET', `/api/playlist-service/song-data/${songId}/uploadService`, { token })).status === 200 ? true : undefined,
      60_000,
      500,
    );
    expect((await call('POST', '/api/playlist-service/crate/special/queue/songs', { token, body: { songs: [{ songId }] } })).status).toBe(
      201,
    );

    const listener = await FeedListener.join(bffUrl, token, userUuid, room.body.uuid);
    try {
      await listener.action('addDj');
      const state = await listener.until((s) => s.nowPlaying?.song?.trackName === 'Container tone', 'the uploaded song playing');
      const playing = state.nowPlaying.song;
      console.log(`now playing: ${JSON.stringify(playing)}`);
      const playlistPath = playing.streamUrls?.uploadService ?? `/api/upload-service/songs/${songId}/hls-playlist`;
      const playlist = await fetch(`${bffUrl}${playlistPath}`, { headers: { authorization: `Bearer ${token}` } });
      expect(playlist.status).toBe(200);
      const m3u8 = await playlist.text();
      const [, keyUri, ivHex] = m3u8.match(/#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)",IV=0x([0-9a-f]{32})/i)!;
      const key = Buffer.from(await (await fetch(`${bffUrl}${keyUri}`)).arrayBuffer());
      expect(key).toHaveLength(16);
      const segments = m3u8.split('\n').filter((line) => line && !line.startsWith('#'));
      expect(segments.length).toBeGreaterThanOrEqual(2);
      for (const segment of segments) {
        const bytes = Buffer.from(await (await fetch(`${bffUrl}${segment}`)).arrayBuffer());
        expect(bytes[0]).not.toBe(0x47);
        const decipher = createDecipheriv('aes-128-cbc', key, Buffer.from(ivHex!, 'hex'));
        const plain = Buffer.concat([decipher.update(bytes), decipher.final()]);
        expect(plain[0]).toBe(0x47); // MPEG-TS, in the clear
      }
    } finally {
      listener.close();
    }
  }, 240_000);

  it('stops every container within its grace period on SIGTERM, cleanly', async () => {
    // The BFF first (as a rollout drains it), then the services, then the web client.
    const stopped: Array<{ name: string; seconds: number; grace: number; exit: string; logs?: string }> = [];
    for (const { name, podSpec } of [...started].reverse()) {
      const grace = podSpec.terminationGracePeriodSeconds ?? 30;
      const t0 = Date.now();
      await podman(
        'kill',
        '--signal',
        (await podman('image', 'inspect', '--format', '{{.Config.StopSignal}}', podSpec.containers[0].image)) || 'SIGTERM',
        name,
      );
      let state = 'running';
      while (state === 'running' && Date.now() - t0 < (grace - 3) * 1000) {
        await new Promise((r) => setTimeout(r, 100));
        state = await podman('inspect', '--format', '{{.State.Status}}', name);
      }
      let report = '';
      if (state === 'running') {
        // Still running near the end of its grace period: what it waits on, then the kill Kubernetes would send.
        await podman('kill', '--signal', 'SIGUSR2', name).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 1500));
        report = await podman('exec', name, 'sh', '-c', 'cat /tmp/report.*.json').catch((e) => String(e));
        await podman('stop', '-t', '0', name);
      }
      const seconds = (Date.now() - t0) / 1000;
      const exit = await podman('inspect', '--format', '{{.State.ExitCode}}', name);
      console.log(`${name}: stopped in ${seconds.toFixed(1)} s (grace ${grace} s), exit ${exit}`);
      if (report) writeFileSync(join(repoRoot, '.local', `stop-report-${name}.json`), report);
      stopped.push({ name, seconds, grace, exit, ...(exit !== '0' || state === 'running' ? { logs: await logsOf(name) } : {}) });
      // In its grace period but slow: which step of its stop waited is in its last lines.
      if (seconds > 5 && exit === '0' && state !== 'running') console.log(`${name} stopped slowly, its last lines:\n${await logsOf(name)}`);
    }
    for (const s of stopped.filter((s) => s.logs)) console.log(`${s.name}, its last lines:\n${s.logs}`);
    expect(stopped.filter((s) => s.logs).map((s) => s.name)).toEqual([]);
  }, 600_000);
});
