import { randomBytes } from 'node:crypto';
import { MobileServiceClient } from '@spinroom/contracts/user/v1/mobile';
import { createGrpcClient } from '@spinroom/platform';
import { testInfra } from '@spinroom/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@spinroom/platform/testing';
import { startServiceProcess, type ServiceProcess } from '../../scripts/lib/processes.js';
import { codeIn, linkTokenIn, mailbox } from '../support/mailpit.js';
import { api, freshEmail, startBffProcess, TEST_SERVICE_SECRET, usePlatform } from '../support/platform.js';

const U = '/api/user-service';

/**
 * One run's logs hold no secret. The user service and the BFF each run as
 * their own process at LOG_LEVEL=debug (the BFF calling that user service);
 * the run walks the phone paths over gRPC (successes and failures: Twilio
 * down, wrong codes, bad numbers) and, through the BFF's REST paths, sign-up,
 * logins with the right and a wrong password, the mailed email code, a magic
 * link, forgot and reset password, a bot and its token, a chat token and
 * logout. No line of either process holds a password, an access token, a
 * code, a link token or a phone number.
 */
describe('secrets stay out of the logs of the user service and the BFF', () => {
  const { platform } = usePlatform();
  let service: ServiceProcess;
  let bff: Awaited<ReturnType<typeof startBffProcess>>;
  let address: string;
  const lines: string[] = [];
  const secrets = new Set<string>();
  /** A token, and its signature alone (a token cut short in a log is still a leak). */
  const secretToken = (token: string) => {
    secrets.add(token);
    secrets.add(token.split('.')[2]!);
    return token;
  };
  const read = (child: ServiceProcess['child']) => {
    child.stdout!.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n')));
    child.stderr!.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n')));
  };

  beforeAll(async () => {
    const port = await freePort();
    address = `127.0.0.1:${port}`;
    service = startServiceProcess('user', 'services/user/src/main.ts', {
      DATABASE_URL: platform().databaseUrl,
      REDIS_URL: platform().chat.redisUrl,
      KAFKA_BROKERS: testInfra().kafkaBrokers.join(','),
      GRPC_PORT: String(port),
      GRPC_HOST: '127.0.0.1',
      // Its peers: the platform's (a profile's avatar is checked with the points service).
      POINTS_ADDR: platform().grpc.points,
      JWT_PRIVATE_KEY: testInfra().signingKeyPem,
      SERVICE_CLIENT_SECRET: TEST_SERVICE_SECRET,
      SMTP_URL: process.env.SMTP_URL ?? '',
      LOG_LEVEL: 'debug',
      OTEL_SDK_DISABLED: 'true',
      ...platform().twilio.env,
    });
    read(service.child);
    const exited = () =>
      service.child.exitCode !== null ? `the user service exited (${service.child.exitCode}): ${lines.join('\n')}` : undefined;
    const deadline = Date.now() + 60_000;
    while (!lines.some((l) => l.includes('gRPC server listening'))) {
      if (exited()) throw new Error(exited());
      if (Date.now() > deadline) throw new Error(`the user service did not start: ${lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    bff = await startBffProcess(platform(), { env: { USER_ADDR: address, LOG_LEVEL: 'debug' }, lines });
  }, 120_000);
  afterAll(async () => {
    await bff?.stop();
    await service?.stop();
  });

  it('logs neither the numbers nor the phone codes', async () => {
    const mobile = createGrpcClient(MobileServiceClient, address);
    const twilio = platform().twilio;
    const phone = `+1415555${String(Date.now() % 10_000).padStart(4, '0')}`;
    secrets.add(phone);
    await mobile.sendCode({ phone, channel: 'sms' });
    const code = twilio.lastCode(phone)!;
    secrets.add(code);
    await expect(mobile.verifyCode({ phone, code: code === '111111' ? '222222' : '111111' })).rejects.toThrow();
    secretToken((await mobile.verifyCode({ phone, code })).grant!.accessToken);
    twilio.failNext(500, 1, 'verify');
    await expect(mobile.sendCode({ phone, channel: 'whatsapp' })).rejects.toThrow();
    twilio.failNext(500, 1, 'lookup');
    await expect(mobile.sendCode({ phone, channel: 'sms' })).rejects.toThrow();
    await expect(mobile.sendCode({ phone: '+12025550144', channel: 'sms' })).rejects.toThrow();
    for (const secret of ['+12025550144', '2025550144', phone.slice(2)]) secrets.add(secret);
    mobile.close();
    await new Promise((r) => setTimeout(r, 500)); // the last lines reach the pipe

    // The service logged (it did start and run at debug), and Twilio's failures reached the log.
    expect(lines.some((l) => l.includes('Twilio call failed'))).toBe(true);
    expectNoSecretLogged();
  });

  it('logs no password, token, code or link through sign-up, logins, mail, bots, chat and logout', async () => {
    const call = (method: string, path: string, options: { token?: string; body?: unknown } = {}) => api(bff.url, method, path, options);
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const wrong = `pw-${randomBytes(8).toString('hex')}`;
    const newPassword = `pw-${randomBytes(8).toString('hex')}`;
    for (const secret of [password, wrong, newPassword]) secrets.add(secret);
    const email = freshEmail();
    const inbox = mailbox(email);

    const signUp = await call('POST', `${U}/users/sign-up`, { body: { email, password } });
    expect(signUp.status).toBe(201);
    const token = secretToken(signUp.body.accessToken);
    const code = codeIn(await inbox.next());
    secrets.add(code);
    expect(
      (await call('POST', `${U}/users/emails/verify`, { token, body: { code: '000000' === code ? '999999' : '000000' } })).status,
    ).toBe(403);
    expect((await call('POST', `${U}/users/emails/verify`, { token, body: { code } })).status).toBe(200);

    expect((await call('POST', `${U}/auth/login`, { body: { email, password: wrong } })).status).toBe(401);
    const login = await call('POST', `${U}/auth/login`, { body: { email, password } });
    expect(login.status).toBe(200);
    secretToken(login.body.accessToken);

    expect((await call('GET', `${U}/auth/magic-link?email=${encodeURIComponent(email)}`)).status).toBe(200);
    const magic = linkTokenIn(await inbox.next()).token;
    secrets.add(magic);
    const byLink = await call('POST', `${U}/auth/validate-magic-link`, { body: { token: magic } });
    expect(byLink.status).toBe(200);
    secretToken(byLink.body.accessToken);
    expect((await call('POST', `${U}/auth/validate-magic-link`, { body: { token: magic } })).status).toBe(401);

    expect((await call('POST', `${U}/users/forgot-password`, { body: { email } })).status).toBe(200);
    const reset = linkTokenIn(await inbox.next()).token;
    secrets.add(reset);
    expect((await call('POST', `${U}/users/reset-password`, { body: { token: reset, newPassword } })).status).toBeLessThan(300);
    expect((await call('POST', `${U}/users/reset-password`, { body: { token: reset, newPassword } })).status).toBe(403);
    const again = await call('POST', `${U}/auth/login`, { body: { email, password: newPassword } });
    expect(again.status).toBe(200);
    const owner = secretToken(again.body.accessToken);
    expect((await call('GET', `${U}/auth/session`, { token })).status).toBe(401);

    const bot = await call('POST', `${U}/users/sign-up-bot`, {
      token: owner,
      body: { botNickName: 'Log Bot', avatarId: 'robot-1', color: 'a1b2c3' },
    });
    expect(bot.status).toBe(201);
    const botToken = await call('GET', `${U}/users/bot-token`, { token: owner });
    expect(botToken.status).toBe(200);
    expect((await call('GET', `${U}/auth/session`, { token: secretToken(botToken.body.accessToken) })).status).toBe(200);
    const chat = await call('GET', `${U}/comet-chat/user-token`, { token: owner });
    expect(chat.status).toBe(200);
    secretToken(chat.body.cometAuthToken);
    expect((await call('POST', `${U}/auth/logout`, { token: owner })).status).toBe(200);
    expect((await call('GET', `${U}/auth/session`, { token: owner })).status).toBe(401);
    // Through the BFF too, with the number in the path, while Twilio fails.
    const phone = `+1415556${String(Date.now() % 10_000).padStart(4, '0')}`;
    secrets.add(phone).add(phone.slice(2));
    platform().twilio.failNext(500, 1, 'lookup');
    const validation = await call('GET', `${U}/phone-validation/validate/${encodeURIComponent(phone)}`, {
      token: botToken.body.accessToken,
    });
    expect(validation).toMatchObject({ status: 200, body: { status: 'VALIDATION_ERROR' } });
    await new Promise((r) => setTimeout(r, 500)); // the last lines reach the pipes

    // Both processes were read from their start (at debug, they log little more than that and failures).
    expect(lines.some((l) => l.includes('BFF listening'))).toBe(true);
    expect(lines.some((l) => l.includes('gRPC server listening'))).toBe(true);
    expectNoSecretLogged();
  }, 60_000);

  function expectNoSecretLogged() {
    for (const secret of secrets) {
      expect(
        lines.filter((l) => l.includes(secret)),
        `lines holding ${secret}`,
      ).toEqual([]);
    }
  }
});
