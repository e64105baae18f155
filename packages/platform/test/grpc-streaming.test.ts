import {
  UploadServiceClient,
  UploadServiceService,
  UploadSongResponse,
  type UploadSongRequest,
} from '@spinroom/contracts/upload/v1/upload_service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenIssuer, TokenVerifier } from '../src/auth.js';
import { runWithContext } from '../src/context.js';
import { AppError } from '../src/errors.js';
import { createGrpcClient, type PromiseClient } from '../src/grpc/client.js';
import { createClientStreamingFactory, startGrpcServer, type RunningGrpcServer } from '../src/grpc/server.js';
import { createLogger } from '../src/logging.js';
import { testInfra } from '../src/testing/index.js';

const chunk = (bytes: number): UploadSongRequest => ({ part: { $case: 'chunk', value: Buffer.alloc(bytes, 7) } });

describe('client-streaming calls', () => {
  let server: RunningGrpcServer;
  let client: PromiseClient<UploadServiceClient>;
  let issuer: TokenIssuer;
  const cancelled: string[] = [];
  const receiving: string[] = [];

  beforeAll(async () => {
    issuer = await TokenIssuer.fromPem(testInfra().signingKeyPem, { issuer: 'spinroom', ttlSeconds: 60 });
    const verifier = await TokenVerifier.fromPem(issuer.publicKeyPem, { issuer: 'spinroom' });
    const logger = createLogger('test', { level: 'silent' });
    const clientStream = createClientStreamingFactory({ verifier: () => verifier, logger });
    // uploadSong counts the bytes it is sent; 413 past 1 MB, "secret" in a file name fails unexpectedly.
    const implementation = {
      uploadSong: clientStream<UploadSongRequest, unknown>(async (messages, context) => {
        const caller = context.caller;
        let bytes = 0;
        let fileName = '';
        try {
          for await (const { part } of messages) {
            if (part?.$case === 'file') fileName = part.value.fileName;
            if (fileName.includes('secret')) throw new Error('secret internals');
            if (part?.$case === 'chunk') bytes += part.value.length;
            if (bytes > 0 && !receiving.includes(caller.userUuid)) receiving.push(caller.userUuid);
            if (bytes > 1024 * 1024) throw new AppError(413, 'Too large');
            if (fileName === 'slow') await new Promise((r) => setTimeout(r, 20));
          }
          if (fileName === 'wait') {
            // Work after the last message (like probing a file) stops when the client goes away.
            await new Promise((_resolve, reject) => {
              const timer = setTimeout(() => reject(new Error('never cancelled')), 5_000);
              context.signal.addEventListener('abort', () => {
                clearTimeout(timer);
                reject(context.signal.reason);
              });
            });
          }
        } catch (error) {
          if (context.signal.aborted) cancelled.push(caller.userUuid);
          throw error;
        }
        return UploadSongResponse.fromPartial({ song: { songId: caller.userUuid, fileName, sizeBytes: bytes } });
      }),
    };
    server = await startGrpcServer({
      port: 0,
      logger,
      services: [{ name: 'spinroom.upload.v1.UploadService', definition: UploadServiceService, implementation }],
    });
    client = createGrpcClient(UploadServiceClient, `127.0.0.1:${server.port}`);
  });

  afterAll(async () => {
    client.close();
    await server.shutdown(1_000);
  });

  const token = (sub: string) => issuer.sign({ sub, role: 'user', capabilities: [] });

  it("streams messages with the current caller's token and returns the answer", async () => {
    const sub = '0b9e2a35-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
    const caller = { userUuid: sub, role: 'user' as const, kind: 'user' as const, capabilities: [], token: await token(sub) };
    const answer = await runWithContext({ caller }, async () => {
      const call = client.uploadSong();
      await call.write({ part: { $case: 'file', value: { fileName: 'slow', contentType: 'audio/mpeg' } } });
      // More than the transport buffers: write() waits on backpressure instead of queueing it all.
      for (let i = 0; i < 16; i += 1) await call.write(chunk(60_000));
      return call.end();
    });
    expect(answer.song).toMatchObject({ songId: sub, fileName: 'slow', sizeBytes: 16 * 60_000 });
  });

  it('answers 401 without a caller', async () => {
    const call = client.uploadSong();
    await expect(call.end()).rejects.toMatchObject({ status: 401 });
  });

  it("rejects further writes with the service's error once it refuses the call", async () => {
    const call = client.uploadSong({ token: await token('1b9e2a35-3c4d-4e5f-8a9b-0c1d2e3f4a5b') });
    const sending = (async () => {
      for (let i = 0; i < 100; i += 1) await call.write(chunk(64 * 1024));
    })();
    await expect(sending).rejects.toMatchObject({ status: 413, messages: 'Too large' });
    await expect(call.response).rejects.toMatchObject({ status: 413 });
  });

  it('hides unexpected errors', async () => {
    const call = client.uploadSong({ token: await token('2b9e2a35-3c4d-4e5f-8a9b-0c1d2e3f4a5b') });
    await call.write({ part: { $case: 'file', value: { fileName: 'secret', contentType: 'x' } } }).catch(() => undefined);
    await expect(call.end()).rejects.toMatchObject({ status: 502, messages: 'Bad Gateway' });
  });

  it("aborts the handler's signal when the client cancels", async () => {
    const sub = '3b9e2a35-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
    const call = client.uploadSong({ token: await token(sub) });
    await call.write({ part: { $case: 'file', value: { fileName: 'wait', contentType: 'audio/mpeg' } } });
    await call.write(chunk(1000));
    await expect.poll(() => receiving.includes(sub)).toBe(true);
    call.cancel();
    await expect(call.response).rejects.toBeInstanceOf(AppError);
    await expect.poll(() => cancelled.includes(sub)).toBe(true);
  });

  it('enforces the deadline', async () => {
    const call = client.uploadSong({ token: await token('4b9e2a35-3c4d-4e5f-8a9b-0c1d2e3f4a5b'), deadlineMs: 100 });
    await call.write({ part: { $case: 'file', value: { fileName: 'slow', contentType: 'audio/mpeg' } } });
    await expect(call.response).rejects.toMatchObject({ status: 504 });
  });
});
