// The Helm chart (helm/spinroom): `helm lint` passes, and `helm template` with
// the default and the in-cluster values renders manifests that validate
// strictly against the Kubernetes API schemas (test/support/k8s-validate.ts).
// helm comes from deploy/tools/install.sh (`go install`), which `npm test` runs.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '@spinroom/contracts/topics';
import { SERVICE_NAMES, SERVICES as SERVICE_LIST } from '@spinroom/platform/core';
import { parseManifests, validateManifests, type K8sObject } from '../support/k8s-validate.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const chart = join(repoRoot, 'helm/spinroom');
const helm = process.env.HELM_BIN ?? join(process.env.SPINROOM_LOCAL_DIR ?? join(repoRoot, '.local'), 'tools/bin/helm');
// The list of services (packages/platform/src/kit/service-list.ts): a new service needs no edit here.
const SERVICES: string[] = [...SERVICE_NAMES];
const COMPONENTS = [...SERVICES, 'bff', 'web'];
// A PKCS#8 PEM shape is all the chart needs to render (it never reads the key).
// The Kubernetes version the manifests are rendered and validated for (the chart needs 1.30+).
const KUBE_VERSION = '1.33.0';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n';

function runHelm(args: string[]): string {
  return execFileSync(helm, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

function render(valuesFiles: string[], sets: string[] = []): K8sObject[] {
  const args = [
    'template',
    'spinroom',
    chart,
    '--namespace',
    'spinroom',
    '--kube-version',
    KUBE_VERSION,
    ...valuesFiles.flatMap((f) => ['-f', join(chart, f)]),
    ...sets.flatMap((s) => ['--set', s]),
  ];
  return parseManifests(runHelm(args));
}

const find = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);

describe('the Helm chart', () => {
  beforeAll(() => {
    if (!existsSync(helm)) throw new Error(`helm is not installed at ${helm}: run \`bash deploy/tools/install.sh helm\` (npm test does)`);
  });

  it('passes helm lint with the default and the in-cluster values', () => {
    expect(runHelm(['lint', chart, '--strict', '--kube-version', KUBE_VERSION])).toContain('0 chart(s) failed');
    expect(runHelm(['lint', chart, '--strict', '--kube-version', KUBE_VERSION, '-f', join(chart, 'values-in-cluster.yaml')])).toContain(
      '0 chart(s) failed',
    );
  });

  it('renders, with the default values, manifests that validate strictly against the Kubernetes schemas', async () => {
    const objects = render(
      [],
      [
        `secrets.jwtPrivateKey=${KEY}`,
        'metrics.podMonitor.enabled=true',
        'metrics.prometheusRule.enabled=true',
        'otel.endpoint=http://collector:4318',
      ],
    );
    expect(await validateManifests(objects)).toEqual([]);

    for (const name of COMPONENTS) {
      const objectName = `spinroom-${name}`;
      for (const kind of ['ServiceAccount', 'Deployment', 'Service', 'PodDisruptionBudget', 'NetworkPolicy']) {
        expect(find(objects, kind, objectName), `${kind} ${objectName}`).toBeDefined();
      }
      const deployment = find(objects, 'Deployment', objectName) as any;
      expect(deployment.metadata.labels).toMatchObject({
        'app.kubernetes.io/name': name,
        'app.kubernetes.io/instance': 'spinroom',
        'app.kubernetes.io/component': name,
        'app.kubernetes.io/part-of': 'spinroom',
      });
      const pod = deployment.spec.template.spec;
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      const container = pod.containers[0];
      expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
      expect(container.resources.requests).toBeDefined();
      expect(container.resources.limits).toBeDefined();
      if (SERVICES.includes(name)) {
        expect(container.readinessProbe.grpc.port).toBe(50051);
        expect(container.livenessProbe.grpc.port).toBe(50051);
        const env = Object.fromEntries(container.env.map((e: any) => [e.name, e.value ?? e.valueFrom?.secretKeyRef?.key]));
        expect(env).toMatchObject({
          GRPC_PORT: '50051',
          METRICS_PORT: '9464',
          OTEL_SERVICE_NAME: name,
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
          DATABASE_URL: `DATABASE_URL_${name.toUpperCase()}`,
        });
        expect(find(objects, 'Job', `spinroom-${name}-migrate`), `migrations of ${name}`).toMatchObject({
          metadata: { annotations: { 'helm.sh/hook': 'pre-install,pre-upgrade' } },
        });
      }
      if (name !== 'web') expect(find(objects, 'HorizontalPodAutoscaler', objectName)).toBeDefined();
    }

    // Each service reaches only what it needs: the chat service calls user, room and social, not playlist or upload.
    const chatPolicy = find(objects, 'NetworkPolicy', 'spinroom-chat') as any;
    const peers = chatPolicy.spec.egress
      .flatMap((rule: any) => (rule.to ?? []).map((to: any) => to.podSelector?.matchLabels?.['app.kubernetes.io/component']))
      .filter(Boolean);
    expect(peers.sort()).toEqual(['room', 'social', 'user']);
    const userPolicy = find(objects, 'NetworkPolicy', 'spinroom-user') as any;
    const callers = userPolicy.spec.ingress
      .flatMap((rule: any) => (rule.from ?? []).map((from: any) => from.podSelector?.matchLabels?.['app.kubernetes.io/component']))
      .filter(Boolean);
    // The BFF and every service whose peers include the user service (all of them call it for keys and tokens).
    const expected = ['bff', ...SERVICE_NAMES.filter((name) => (SERVICE_LIST[name].peers as readonly string[]).includes('user'))];
    expect(callers.sort()).toEqual(expected.sort());

    const ingress = find(objects, 'Ingress', 'spinroom') as any;
    const paths = Object.fromEntries(ingress.spec.rules[0].http.paths.map((p: any) => [p.path, p.backend.service.name]));
    expect(paths).toMatchObject({ '/api': 'spinroom-bff', '/primus': 'spinroom-bff', '/chat': 'spinroom-bff', '/': 'spinroom-web' });
    expect(Number(ingress.metadata.annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'])).toBeGreaterThanOrEqual(3600);

    const topics = find(objects, 'Job', 'spinroom-kafka-topics') as any;
    const script: string = topics.spec.template.spec.containers[0].args[0];
    // Exactly the platform's topics (packages/contracts/src/topics.ts), as the list sizes and keeps them, each with its .dlq twin.
    const created = [...script.matchAll(/^\s*topic (\S+) (\d+) (\d+)$/gm)].map(([, name, partitions, retentionMs]) => [
      name,
      Number(partitions),
      Number(retentionMs),
    ]);
    expect(created.filter(([name]) => !String(name).endsWith('.dlq')).sort()).toEqual(
      Object.values(TOPICS)
        .map((t) => [t.name, t.partitions, t.retentionMs])
        .sort(),
    );
    for (const topic of Object.values(TOPICS)) expect(created.map(([name]) => name)).toContain(`${topic.name}.dlq`);
    expect(byKind(objects, 'PrometheusRule')).toHaveLength(1);
    expect(byKind(objects, 'PodMonitor')).toHaveLength(COMPONENTS.length - 1);
    // External PostgreSQL, Redis and Kafka by default.
    expect(byKind(objects, 'StatefulSet')).toHaveLength(0);
  }, 120_000);

  it('renders, with the in-cluster values, a valid single-node PostgreSQL, Redis and Kafka and plain Jobs', async () => {
    const objects = render(['values-in-cluster.yaml'], [`secrets.jwtPrivateKey=${KEY}`]);
    expect(await validateManifests(objects)).toEqual([]);
    expect(
      byKind(objects, 'StatefulSet')
        .map((s) => s.metadata.name)
        .sort(),
    ).toEqual(['spinroom-kafka', 'spinroom-postgresql', 'spinroom-redis']);
    const images = byKind(objects, 'StatefulSet')
      .map((s: any) => s.spec.template.spec.containers[0].image.split(':')[0])
      .sort();
    expect(images).toEqual(['apache/kafka', 'postgres', 'redis']);
    const jobs = byKind(objects, 'Job');
    expect(jobs).toHaveLength(SERVICES.length + 1);
    for (const job of jobs) expect(job.metadata.annotations?.['helm.sh/hook']).toBeUndefined();
    const secret = byKind(objects, 'Secret')[0] as any;
    const roomUrl = Buffer.from(secret.data.DATABASE_URL_ROOM, 'base64').toString();
    expect(roomUrl).toMatch(/^postgres:\/\/spinroom:[A-Za-z0-9]+@spinroom-postgresql:5432\/spinroom_room$/);
  }, 120_000);

  it('runs one replica of every component, without autoscalers or disruption budgets, with the in-cluster and the dev values', () => {
    for (const values of ['values-in-cluster.yaml', 'values-dev.yaml']) {
      const objects = render([values], [`secrets.jwtPrivateKey=${KEY}`]);
      const deployments = byKind(objects, 'Deployment') as any[];
      expect(deployments.map((d) => d.metadata.name.replace(/^spinroom-/, '')).sort()).toEqual([...COMPONENTS].sort());
      for (const deployment of deployments) expect(deployment.spec.replicas, deployment.metadata.name).toBe(1);
      expect(byKind(objects, 'HorizontalPodAutoscaler')).toHaveLength(0);
      expect(byKind(objects, 'PodDisruptionBudget')).toHaveLength(0);
    }
  }, 120_000);

  it('uses an existing Secret instead of creating one', () => {
    const objects = render([], ['secrets.existingSecret=spinroom-prod']);
    expect(byKind(objects, 'Secret')).toHaveLength(0);
    const user = find(objects, 'Deployment', 'spinroom-user') as any;
    const refs = user.spec.template.spec.containers[0].env.flatMap((e: any) => (e.valueFrom ? [e.valueFrom.secretKeyRef.name] : []));
    expect(new Set(refs)).toEqual(new Set(['spinroom-prod']));
  });

  it("gives the user service its optional integrations' secrets, its web URL and a volume for pictures", async () => {
    const container = (objects: K8sObject[]) => (find(objects, 'Deployment', 'spinroom-user') as any).spec.template.spec.containers[0];
    const envOf = (objects: K8sObject[]) => Object.fromEntries(container(objects).env.map((e: any) => [e.name, e]));
    const secretOf = (objects: K8sObject[]) => (find(objects, 'Secret', 'spinroom-secrets') as any).data as Record<string, string>;
    const OPTIONAL = ['PROVIDER_TOKEN_KEYS', 'SPOTIFY_CLIENT_SECRET', 'APPLE_MUSIC_PRIVATE_KEY', 'TWILIO_AUTH_TOKEN', 'SMTP_URL'];

    // With the defaults: every optional variable is an optional reference to a key the Secret does not hold.
    const defaults = render([], [`secrets.jwtPrivateKey=${KEY}`]);
    const env = envOf(defaults);
    for (const name of OPTIONAL) {
      expect(env[name]?.valueFrom?.secretKeyRef, name).toEqual({ name: 'spinroom-secrets', key: name, optional: true });
      expect(secretOf(defaults), name).not.toHaveProperty(name);
    }
    expect(env.WEB_URL.value).toBe('http://spinroom.example.com');
    expect([env.WEBAUTHN_RP_ID.value, env.WEBAUTHN_ORIGINS.value]).toEqual(['spinroom.example.com', 'http://spinroom.example.com']);
    expect(env.USER_IMAGES_DIR.value).toBe('/data/user-images');
    expect(container(defaults).volumeMounts).toContainEqual({ name: 'images', mountPath: '/data/user-images' });
    const pod = (find(defaults, 'Deployment', 'spinroom-user') as any).spec.template.spec;
    expect(pod.volumes).toContainEqual({ name: 'images', emptyDir: { sizeLimit: '2Gi' } });
    const egress = (find(defaults, 'NetworkPolicy', 'spinroom-user') as any).spec.egress.flatMap((rule: any) => rule.ports ?? []);
    expect(egress).toContainEqual({ port: 443, protocol: 'TCP' });

    // Given values land in the Secret; a claim replaces the emptyDir; TLS makes the web URL https.
    const given = render(
      [],
      [
        `secrets.jwtPrivateKey=${KEY}`,
        'secrets.optional.TWILIO_AUTH_TOKEN=twilio-token',
        'secrets.optional.SMTP_URL=smtps://mailer:pw@smtp.example.com:465',
        'components.user.imagesVolume.existingClaim=user-pictures',
        'ingress.tls.enabled=true',
      ],
    );
    expect(await validateManifests(given)).toEqual([]);
    expect(Buffer.from(secretOf(given).TWILIO_AUTH_TOKEN!, 'base64').toString()).toBe('twilio-token');
    expect(Buffer.from(secretOf(given).SMTP_URL!, 'base64').toString()).toBe('smtps://mailer:pw@smtp.example.com:465');
    expect(secretOf(given)).not.toHaveProperty('PROVIDER_TOKEN_KEYS');
    expect((find(given, 'Deployment', 'spinroom-user') as any).spec.template.spec.volumes).toContainEqual({
      name: 'images',
      persistentVolumeClaim: { claimName: 'user-pictures' },
    });
    expect(envOf(given).WEB_URL.value).toBe('https://spinroom.example.com');
    expect(envOf(given).WEBAUTHN_ORIGINS.value).toBe('https://spinroom.example.com');
  }, 120_000);

  it('has a validator that refuses unknown fields and wrong types', async () => {
    const [deployment] = render([], [`secrets.jwtPrivateKey=${KEY}`]).filter((o) => o.kind === 'Deployment') as any[];
    const unknownField = structuredClone(deployment);
    unknownField.spec.template.spec.containers[0].livenessProbe.grpcc = { port: 1 };
    expect((await validateManifests([unknownField])).join('\n')).toMatch(/grpcc/);
    const wrongType = structuredClone(deployment);
    wrongType.spec.template.spec.containers[0].ports[0].containerPort = '50051';
    expect(await validateManifests([wrongType])).not.toEqual([]);
  }, 120_000);
});
