import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Client, type ClientDuplexStream, credentials, loadPackageDefinition } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { descriptorSetPath } from '@spinroom/contracts/descriptors';
import { UserKind, UserServiceClient, UserServiceService } from '@spinroom/contracts/user/v1/user_service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenIssuer, TokenVerifier } from '../src/auth.js';
import { runWithContext } from '../src/context.js';
import { forbidden } from '../src/errors.js';
import { createGrpcClient, type PromiseClient } from '../src/grpc/client.js';
import { GrpcHealthChecker } from '../src/grpc/health.js';
import { eventually } from '../src/testing/index.js';
import { createUnaryFactory, startGrpcServer, type RunningGrpcServer } from '../src/grpc/server.js';
import { createLogger } from '../src/logging.js';
import { testInfra } from '../src/testing/index.js';

const require = createRequire(import.meta.url);

describe('gRPC server bootstrap and client factory', () => {
  let server: RunningGrpcServer;
  let client: PromiseClient<UserServiceClient>;
  let issuer: TokenIssuer;

  beforeAll(async () => {
    issuer = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 60 });
    const verifier = await TokenVerifier.fromPem(issuer.publicKeyPem, { issuer: 'spinroom' });
    const logger = createLogger('test', { level: 'silent' });
    const unary = createUnaryFactory({ verifier: () => verifier, logger });
    // Only the methods this test needs; the others answer UNIMPLEMENTED.
    const implementation = {
      // Authenticated by default: the handler reads the caller without checking for one.
      getSession: unary(async (_req, ctx) => ({ userUuid: ctx.caller.userUuid, kind: UserKind.USER_KIND_USER, roles: [ctx.caller.role] })),
      getPublicKey: unary.public(async (_req, ctx) => ({ publicKeyPem: ctx.caller?.userUuid ?? 'anyone', keyId: '', keys: [] })),
      signUp: unary.public(async () => {
        throw forbidden('This email is already registered');
      }),
      logIn: unary.public(async () => {
        await new Promise((r) => setTimeout(r, 400));
        return {};
      }),
      createGuest: unary.public(async () => {
        throw new Error('secret internals');
      }),
    };
    server = await startGrpcServer({
      port: 0,
      logger,
      descriptorSetPath,
      services: [{ name: 'spinroom.user.v1.UserService', definition: UserServiceService, implementation }],
    });
    client = createGrpcClient(UserServiceClient, `127.0.0.1:${server.port}`);
  });

  afterAll(async () => {
    client.close();
    await server.shutdown(1_000);
  });

  it("passes the current request's caller as metadata", async () => {
    const token = await issuer.sign({ sub: '0b9e2a35-3c4d-4e5f-8a9b-0c1d2e3f4a5b', role: 'moderator', capabilities: [] });
    const caller = {
      userUuid: '0b9e2a35-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
      role: 'moderator' as const,
      kind: 'user' as const,
      capabilities: [],
      token,
    };
    const session = await runWithContext({ caller }, () => client.getSession({}));
    expect(session).toEqual({ userUuid: caller.userUuid, kind: UserKind.USER_KIND_USER, roles: ['moderator'] });
  });

  it('answers 401 without a caller and with a bad token', async () => {
    await expect(client.getSession({})).rejects.toMatchObject({ status: 401 });
    await expect(client.getSession({}, { token: 'not-a-jwt' })).rejects.toMatchObject({ status: 401 });
  });

  it('runs a public handler without a caller, with the caller when there is a token, and refuses a bad token', async () => {
    expect(await client.getPublicKey({})).toEqual({ publicKeyPem: 'anyone', keyId: '', keys: [] });
    const token = await issuer.sign({ sub: '0b9e2a35-3c4d-4e5f-8a9b-0c1d2e3f4a5b', role: 'user', capabilities: [] });
    expect(await client.getPublicKey({}, { token })).toEqual({ publicKeyPem: '0b9e2a35-3c4d-4e5f-8a9b-0c1d2e3f4a5b', keyId: '', keys: [] });
    await expect(client.getPublicKey({}, { token: 'not-a-jwt' })).rejects.toMatchObject({ status: 401 });
  });

  it("returns the service's status and exact message", async () => {
    await expect(client.signUp({ email: 'a@b.co', password: 'x' })).rejects.toMatchObject({
      status: 403,
      messages: 'This email is already registered',
    });
  });

  it('hides unexpected errors', async () => {
    await expect(client.createGuest({})).rejects.toMatchObject({ status: 502, messages: 'Bad Gateway' });
  });

  it('enforces deadlines', async () => {
    await expect(client.logIn({ email: 'a', password: 'b' }, { deadlineMs: 50 })).rejects.toMatchObject({ status: 504 });
  });

  it('serves the standard health service', async () => {
    const health = new GrpcHealthChecker();
    expect(await health.serving(`127.0.0.1:${server.port}`, 'spinroom.user.v1.UserService')).toBe(true);
    expect(await health.allServing([`127.0.0.1:${server.port}`, '127.0.0.1:1'])).toBe(false);
    health.close();
  });

  it('answers server reflection: the services, and the file that defines a symbol with its dependencies', async () => {
    const definition = loadSync(
      join(dirname(require.resolve('@grpc/reflection/package.json')), 'build/proto/grpc/reflection/v1/reflection.proto'),
      {
        keepCase: true,
      },
    );
    const { ServerReflection } = (
      loadPackageDefinition(definition) as unknown as { grpc: { reflection: { v1: Record<string, typeof Client> } } }
    ).grpc.reflection.v1;
    const reflection = new ServerReflection!(`127.0.0.1:${server.port}`, credentials.createInsecure());
    type Answer = {
      list_services_response?: { service: Array<{ name: string }> };
      file_descriptor_response?: { file_descriptor_proto: Buffer[] };
    };
    const ask = (request: object) =>
      new Promise<Answer>((resolve, reject) => {
        const call = (reflection as unknown as { ServerReflectionInfo(): ClientDuplexStream<object, Answer> }).ServerReflectionInfo();
        call.on('data', (answer: Answer) => {
          resolve(answer);
          call.end();
        });
        call.on('error', reject);
        call.write(request);
      });
    try {
      const listed = await ask({ list_services: '' });
      expect(listed.list_services_response?.service.map((s) => s.name)).toContain('spinroom.user.v1.UserService');
      const files = await ask({ file_containing_symbol: 'spinroom.user.v1.UserService' });
      // FileDescriptorProtos (proto-loader's, one per package): the one that defines the service names it and its methods.
      const protos = files.file_descriptor_response?.file_descriptor_proto ?? [];
      expect(protos.some((bytes) => bytes.includes('UserService') && bytes.includes('GetSession'))).toBe(true);
      expect(protos.length).toBeGreaterThan(1);
    } finally {
      reflection.close();
    }
  });

  it('says NOT_SERVING until the service is ready (e.g. has the key that verifies callers)', async () => {
    let ready = false;
    const waiting = await startGrpcServer({
      port: 0,
      logger: createLogger('test', { level: 'silent' }),
      services: [{ name: 'spinroom.user.v1.UserService', definition: UserServiceService, implementation: {} }],
      ready: () => ready,
    });
    const health = new GrpcHealthChecker();
    try {
      expect(await health.serving(`127.0.0.1:${waiting.port}`, 'spinroom.user.v1.UserService')).toBe(false);
      ready = true;
      await eventually(
        async () => ((await health.serving(`127.0.0.1:${waiting.port}`, 'spinroom.user.v1.UserService')) ? true : undefined),
        5_000,
        50,
      );
    } finally {
      health.close();
      await waiting.shutdown(500);
    }
  });
});
