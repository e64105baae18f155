import { MobileServiceClient } from '@spinroom/contracts/user/v1/mobile';
import { createGrpcClient } from '@spinroom/platform';
import { testInfra } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServiceProcess, type ServiceProcess } from '../../scripts/lib/processes.js';
import { TEST_SERVICE_SECRET, usePlatform } from '../support/platform.js';

/**
 * The user service as its own process at LOG_LEVEL=debug, its phone paths
 * walked through their successes and failures (Twilio down, wrong codes, bad
 * numbers): no line it logs holds a number or a code.
 */
describe('phone codes and numbers stay out of the user service logs', () => {
  const { platform } = usePlatform();
  let service: ServiceProcess;
  let address: string;
  const lines: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    address = `127.0.0.1:${port}`;
    service = startServiceProcess('user', 'services/user/src/main.ts', {
      DATABASE_URL: platform().databaseUrl,
      REDIS_URL: platform().chat.redisUrl,
      KAFKA_BROKERS: testInfra().kafkaBrokers.join(','),
      GRPC_PORT: String(port),
      GRPC_HOST: '127.0.0.1',
      JWT_PRIVATE_KEY: testInfra().signingKeyPem,
      SERVICE_CLIENT_SECRET: TEST_SERVICE_SECRET,
      LOG_LEVEL: 'debug',
      OTEL_SDK_DISABLED: 'true',
      ...platform().twilio.env,
    });
    service.child.stdout!.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n')));
    service.child.stderr!.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n')));
    const exited = () =>
      service.child.exitCode !== null ? `the user service exited (${service.child.exitCode}): ${lines.join('\n')}` : undefined;
    const deadline = Date.now() + 60_000;
    while (!lines.some((l) => l.includes('gRPC server listening'))) {
      if (exited()) throw new Error(exited());
      if (Date.now() > deadline) throw new Error(`the user service did not start: ${lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('logs neither the numbers nor the codes', async () => {
    const mobile = createGrpcClient(MobileServiceClient, address);
    const twilio = platform().twilio;
    const phone = `+1415555${String(Date.now() % 10_000).padStart(4, '0')}`;
    const secrets = [phone];
    await mobile.sendCode({ phone, channel: 'sms' });
    const code = twilio.lastCode(phone)!;
    secrets.push(code);
    await expect(mobile.verifyCode({ phone, code: code === '111111' ? '222222' : '111111' })).rejects.toThrow();
    await mobile.verifyCode({ phone, code });
    twilio.failNext(500, 1, 'verify');
    await expect(mobile.sendCode({ phone, channel: 'whatsapp' })).rejects.toThrow();
    twilio.failNext(500, 1, 'lookup');
    await expect(mobile.sendCode({ phone, channel: 'sms' })).rejects.toThrow();
    await expect(mobile.sendCode({ phone: '+12025550144', channel: 'sms' })).rejects.toThrow();
    secrets.push('+12025550144', '2025550144', phone.slice(2));
    mobile.close();
    await new Promise((r) => setTimeout(r, 500)); // the last lines reach the pipe

    // The service logged (it did start and run at debug), and Twilio's failures reached the log.
    expect(lines.some((l) => l.includes('Twilio call failed'))).toBe(true);
    for (const secret of secrets) {
      expect(
        lines.filter((l) => l.includes(secret)),
        `lines holding ${secret}`,
      ).toEqual([]);
    }
  });
});
