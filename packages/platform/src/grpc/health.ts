import { credentials, makeGenericClientConstructor, type Client, type ServiceError } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';

const HealthClient = makeGenericClientConstructor(healthService, 'grpc.health.v1.Health');
type HealthCheck = Client & {
  check(
    request: { service: string },
    options: { deadline: Date },
    callback: (error: ServiceError | null, response: { status: string | number }) => void,
  ): void;
};

/**
 * Asks peers' standard health service whether they are SERVING (a BFF's or
 * service's readiness). One client per address, reused across checks.
 */
export class GrpcHealthChecker {
  private readonly clients = new Map<string, HealthCheck>();

  async serving(address: string, service = '', deadlineMs = 1_000): Promise<boolean> {
    let client = this.clients.get(address);
    if (!client) {
      client = new HealthClient(address, credentials.createInsecure()) as unknown as HealthCheck;
      this.clients.set(address, client);
    }
    return new Promise((resolve) =>
      client.check({ service }, { deadline: new Date(Date.now() + deadlineMs) }, (error, response) =>
        resolve(!error && (response.status === 'SERVING' || response.status === 1)),
      ),
    );
  }

  async allServing(addresses: string[]): Promise<boolean> {
    return (await Promise.all(addresses.map((a) => this.serving(a)))).every(Boolean);
  }

  close(): void {
    for (const client of this.clients.values()) client.close();
  }
}
