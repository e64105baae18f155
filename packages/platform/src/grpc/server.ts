import { readFileSync } from 'node:fs';
import {
  Server,
  ServerCredentials,
  status as grpcStatus,
  type handleUnaryCall,
  type Metadata,
  type ServiceDefinition,
  type UntypedServiceImplementation,
  type sendUnaryData,
  type ServerUnaryCall,
  type handleClientStreamingCall,
  type ServerReadableStream,
} from '@grpc/grpc-js';
import { loadFileDescriptorSetFromBuffer } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { HealthImplementation } from 'grpc-health-check';
import type { Caller, TokenVerifier } from '../auth.js';
import { runWithContext } from '../context.js';
import { AppError, unauthorized } from '../errors.js';
import type { Logger } from '../logging.js';
import { recordRpc } from '../telemetry/metrics.js';
import { toGrpcError } from './status.js';

/** What an authenticated handler knows of its call: the caller is verified (a call without a token never reaches it). */
export interface CallContext {
  metadata: Metadata;
  caller: Caller;
}

/** What a public handler knows: the caller when the call carries a token (a bad token is still a 401). */
export interface PublicCallContext {
  metadata: Metadata;
  caller: Caller | undefined;
}

export type UnaryHandler<Req, Res> = (request: Req, context: CallContext) => Promise<Res>;
export type PublicUnaryHandler<Req, Res> = (request: Req, context: PublicCallContext) => Promise<Res>;

export interface UnaryFactory {
  /** A handler for verified callers only: a call without a token is a 401 before the handler runs. */
  <Req, Res>(handler: UnaryHandler<Req, Res>): handleUnaryCall<Req, Res>;
  /** A handler anyone may call (sign-up, a public key, a webhook that proves itself otherwise). */
  public<Req, Res>(handler: PublicUnaryHandler<Req, Res>): handleUnaryCall<Req, Res>;
}

/**
 * Turns plain async functions into grpc-js handlers: verifies the caller's
 * token from the `authorization` metadata (required unless the handler is
 * declared with `unary.public`), runs the handler inside the request
 * context, and maps thrown errors to statuses. Handlers stay thin: validate, delegate.
 */
export function createUnaryFactory(options: { verifier: () => TokenVerifier | undefined; logger: Logger }): UnaryFactory {
  const build = <Req, Res>(handler: PublicUnaryHandler<Req, Res>, open: boolean): handleUnaryCall<Req, Res> => {
    return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
      const started = performance.now();
      void (async () => {
        try {
          const caller = await verifyCaller(call.metadata, options.verifier());
          if (!caller && !open) throw unauthorized();
          const context: PublicCallContext = { metadata: call.metadata, caller };
          const response = await runWithContext({ caller }, () => handler(call.request, context));
          callback(null, response);
          recordRpc(call.getPath(), 'OK', started);
        } catch (error) {
          const payload = toGrpcError(error);
          if (payload.details === 'Internal Server Error') {
            options.logger.error({ err: error, method: call.getPath() }, 'rpc failed');
          }
          callback({ code: payload.code, details: payload.details, metadata: payload.metadata });
          recordRpc(call.getPath(), statusName(payload.code), started);
        }
      })();
    };
  };
  const unary = <Req, Res>(handler: UnaryHandler<Req, Res>) => build(handler as PublicUnaryHandler<Req, Res>, false);
  return Object.assign(unary, { public: <Req, Res>(handler: PublicUnaryHandler<Req, Res>) => build(handler, true) });
}

export interface StreamCallContext extends CallContext {
  /** Aborted when the client cancels the call or its deadline passes: stop work and clean up. */
  signal: AbortSignal;
}

export type ClientStreamingHandler<Req, Res> = (messages: AsyncIterable<Req>, context: StreamCallContext) => Promise<Res>;

/**
 * The client-streaming counterpart of createUnaryFactory: the handler reads
 * the client's messages as an async iterable (with backpressure) and returns
 * the one answer. The caller is verified (and required) and errors are mapped the same way.
 * A cancelled call aborts `context.signal` (and the iteration throws if it
 * is still reading), so a handler can stop work and remove what it stored.
 * Beware: grpc-js reports a client's cancel as the end of the request stream
 * a few milliseconds before the cancellation itself, so the end of the
 * iteration does not prove the client finished: a protocol whose completeness
 * matters ends with a message of its own (as UploadSong's `end` does).
 */
export function createClientStreamingFactory(options: { verifier: () => TokenVerifier | undefined; logger: Logger }) {
  return function clientStream<Req, Res>(handler: ClientStreamingHandler<Req, Res>): handleClientStreamingCall<Req, Res> {
    return (call: ServerReadableStream<Req, Res>, callback: sendUnaryData<Res>) => {
      const abort = new AbortController();
      const cancelled = new AppError(499, 'The client cancelled the call');
      call.once('cancelled', () => abort.abort(cancelled));
      const started = performance.now();
      async function* messages(): AsyncGenerator<Req> {
        try {
          for await (const message of call) yield message as Req;
        } catch (error) {
          throw abort.signal.aborted ? cancelled : error;
        }
        if (abort.signal.aborted) throw cancelled;
      }
      void (async () => {
        try {
          const caller = await verifyCaller(call.metadata, options.verifier());
          if (!caller) throw unauthorized();
          const context: StreamCallContext = { metadata: call.metadata, caller, signal: abort.signal };
          const response = await runWithContext({ caller }, () => handler(messages(), context));
          callback(null, response);
          recordRpc(call.getPath(), 'OK', started);
        } catch (error) {
          if (abort.signal.aborted) {
            recordRpc(call.getPath(), 'CANCELLED', started);
            return; // nobody is waiting for an answer
          }
          const payload = toGrpcError(error);
          if (payload.details === 'Internal Server Error') {
            options.logger.error({ err: error, method: call.getPath() }, 'rpc failed');
          }
          callback({ code: payload.code, details: payload.details, metadata: payload.metadata });
          recordRpc(call.getPath(), statusName(payload.code), started);
        }
      })();
    };
  };
}

/** `NOT_FOUND` for 5: the metric label of a status code. */
function statusName(code: number): string {
  return grpcStatus[code] ?? String(code);
}

async function verifyCaller(metadata: Metadata, verifier: TokenVerifier | undefined): Promise<Caller | undefined> {
  const header = metadata.get('authorization')[0];
  if (header === undefined) return undefined;
  // The public key is not known yet (the user service has not answered): try again shortly.
  if (!verifier) throw new AppError(503, 'Sign-in is not available yet, please try again');
  return verifier.verifyHeader(String(header));
}

export interface GrpcServiceRegistration {
  /** Fully qualified name, e.g. `spinroom.user.v1.UserService`, for the health service. */
  name: string;
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

export interface RunningGrpcServer {
  port: number;
  /** Marks the server NOT_SERVING, lets calls in flight finish (up to the grace period), then closes. */
  shutdown(graceMs?: number): Promise<void>;
}

/**
 * Server reflection over a descriptor set, built once per set and process, and handed one
 * entry per distinct list of file descriptors: @grpc/reflection decodes the list of every
 * entry it is given, and every one of the set's ~900 types and services carries the same
 * whole list, so the whole package cost 3.4 s of CPU at each server's start against 65 ms
 * for the same files, symbols and services this way.
 */
const reflections = new Map<string, ReflectionService>();
function reflectionFor(descriptorSetPath: string): ReflectionService {
  let reflection = reflections.get(descriptorSetPath);
  if (!reflection) {
    const definitions = loadFileDescriptorSetFromBuffer(readFileSync(descriptorSetPath));
    const lists = new Set<unknown>();
    const distinct = Object.fromEntries(
      Object.entries(definitions).filter(([, definition]) => {
        const list = 'fileDescriptorProtos' in definition ? definition.fileDescriptorProtos : undefined;
        if (list === undefined || lists.has(list)) return false;
        lists.add(list);
        return true;
      }),
    );
    reflection = new ReflectionService(distinct);
    reflections.set(descriptorSetPath, reflection);
  }
  return reflection;
}

export async function startGrpcServer(options: {
  host?: string;
  port: number;
  services: GrpcServiceRegistration[];
  /** A `buf build` descriptor set, served by server reflection. */
  descriptorSetPath?: string;
  logger: Logger;
  /**
   * Whether the service can answer yet (e.g. it has the key that verifies
   * callers); health says NOT_SERVING until it can, so readiness checks wait.
   */
  ready?: () => boolean;
}): Promise<RunningGrpcServer> {
  const server = new Server({
    'grpc.keepalive_time_ms': 30_000,
    'grpc.enable_channelz': 0, // see the client
    'grpc.max_receive_message_length': 8 * 1024 * 1024,
  });
  const statuses: Record<string, 'SERVING' | 'NOT_SERVING'> = { '': 'SERVING' };
  for (const service of options.services) {
    server.addService(service.definition, service.implementation);
    statuses[service.name] = 'SERVING';
  }
  const ready = options.ready ?? (() => true);
  let stopping = false;
  const serve = (status: 'SERVING' | 'NOT_SERVING') => {
    for (const name of Object.keys(statuses)) health.setStatus(name, status);
  };
  const health = new HealthImplementation(statuses);
  health.addToServer(server);
  if (!ready()) {
    serve('NOT_SERVING');
    const waiting = setInterval(() => {
      if (stopping || ready()) {
        clearInterval(waiting);
        if (!stopping) serve('SERVING');
      }
    }, 100);
    waiting.unref();
  }
  if (options.descriptorSetPath) reflectionFor(options.descriptorSetPath).addToServer(server);

  const host = options.host ?? '127.0.0.1';
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${options.port}`, ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  options.logger.info({ port }, 'gRPC server listening');

  return {
    port,
    async shutdown(graceMs = 5_000) {
      stopping = true;
      serve('NOT_SERVING');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
