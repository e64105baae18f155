// The list of services (packages/platform/src/kit/service-list.ts) is the one
// place a service is declared: the chart's values and the Tiltfile must agree
// with it, so a new service is its folder plus one entry (and its component in
// the chart, which this test asks for).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_NAMES, SERVICES, peerAddressVariable, type ServiceEntry } from '@spinroom/platform/core';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

interface Component {
  kind: string;
  database?: string;
  redis?: boolean;
  kafka?: boolean;
  peers: string[];
  secretEnv: string[];
}

describe('the list of services', () => {
  const values = parse(readFileSync(join(repoRoot, 'helm/spinroom/values.yaml'), 'utf8')) as { components: Record<string, Component> };

  it('names every gRPC service of the chart, and only those', () => {
    const charted = Object.entries(values.components)
      .filter(([, c]) => c.kind === 'service')
      .map(([name]) => name);
    expect(charted.sort()).toEqual([...SERVICE_NAMES].sort());
  });

  it.each(SERVICE_NAMES)('agrees with the chart on what %s needs: database, Redis, Kafka, peers, the service secret', (name) => {
    const entry: ServiceEntry = SERVICES[name];
    const component = values.components[name]!;
    expect({
      database: component.database,
      redis: component.redis ?? false,
      kafka: component.kafka ?? false,
      peers: component.peers,
      serviceToken: component.secretEnv.includes('SERVICE_CLIENT_SECRET'),
    }).toEqual({
      database: entry.database,
      redis: entry.redis ?? false,
      kafka: entry.kafka ?? false,
      peers: [...entry.peers],
      // The user service checks the secret; the others with a service token present it.
      serviceToken: name === 'user' || (entry.serviceToken ?? false),
    });
  });

  it('gives each service a folder with its process and the BFF every peer address', () => {
    for (const name of SERVICE_NAMES) expect(existsSync(join(repoRoot, 'services', name, 'src/main.ts'))).toBe(true);
    expect(values.components.bff!.peers.sort()).toEqual([...SERVICE_NAMES].sort());
    expect(SERVICE_NAMES.map(peerAddressVariable)).toEqual([
      'USER_ADDR',
      'PLAYLIST_ADDR',
      'UPLOAD_ADDR',
      'ROOM_ADDR',
      'CHAT_ADDR',
      'POINTS_ADDR',
      'PAYMENT_ADDR',
      'SOCIAL_ADDR',
      'AUDIT_ADDR',
    ]);
  });

  it('is what the Tiltfile builds and deploys (it reads scripts/list-services.ts)', () => {
    expect(readFileSync(join(repoRoot, 'Tiltfile'), 'utf8')).toContain("local('node --import tsx scripts/list-services.ts'");
    const printed = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/list-services.ts'], { cwd: repoRoot, encoding: 'utf8' });
    expect(JSON.parse(printed)).toEqual(SERVICES);
  });
});
