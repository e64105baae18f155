import {
  credentials,
  Metadata,
  type CallOptions,
  type Client,
  type ClientOptions,
  type ClientUnaryCall,
  type ClientWritableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import { context as otelContext, propagation } from '@opentelemetry/api';
import { currentContext } from '../context.js';
import { fromGrpcError } from './status.js';

type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientUnaryCall;

type ClientStreamingMethod<Req, Res> = (
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientWritableStream<Req>;

/**
 * A ts-proto grpc-js client as plain async functions: `await users.getSession({})`.
 * A client-streaming RPC opens a ClientStream: `const call = uploads.uploadSong(); await call.write(m); await call.end()`.
 */
export type PromiseClient<C> = {
  // biome-ignore lint/suspicious/noExplicitAny: matches a method whatever its request and response types
  [K in keyof C as C[K] extends UnaryMethod<any, any> | ClientStreamingMethod<any, any> ? K : never]: C[K] extends ClientStreamingMethod<
    infer Req,
    infer Res
  >
    ? (options?: CallSettings) => ClientStream<Req, Res>
    : C[K] extends UnaryMethod<infer Req, infer Res>
      ? (request: Req, options?: CallSettings) => Promise<Res>
      : never;
} & { close(): void };

/** One client-streaming call in flight. */
export interface ClientStream<Req, Res> {
  /**
   * Sends one message. Resolves when the transport can take the next one
   * (backpressure); rejects with the service's error once it has refused the call.
   */
  write(message: Req): Promise<void>;
  /** Half-closes the call and waits for the answer. */
  end(): Promise<Res>;
  /** Abandons the call: the service sees a cancellation (and cleans up). */
  cancel(): void;
  /** Settles when the service answers, which can come before `end()` (an early refusal). */
  readonly response: Promise<Res>;
}

export interface CallSettings {
  /** Overrides the default deadline for this call. */
  deadlineMs?: number;
  /** Calls as this token instead of the current request's caller (e.g. a service's own token). */
  token?: string;
}

/** Default deadline of a client-streaming call (an upload can take a while on a slow link). */
const STREAM_DEADLINE_MS = 15 * 60_000;

export interface GrpcClientConstructor<C extends Client> {
  new (address: string, creds: ReturnType<typeof credentials.createInsecure>, options?: Partial<ClientOptions>): C;
  service: Record<string, unknown>;
}

/**
 * One typed client per upstream. Each call carries the current caller's token
 * (from the request context) and the trace context as metadata, has a deadline,
 * and fails with the AppError the service raised.
 */
export function createGrpcClient<C extends Client>(
  Constructor: GrpcClientConstructor<C>,
  address: string,
  options: { deadlineMs?: number } = {},
): PromiseClient<C> {
  const raw = new Constructor(address, credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    // channelz (grpc-js's live call counters, for its debug service) is not served: skip its per-call bookkeeping.
    'grpc.enable_channelz': 0,
    // A peer that restarts (a deploy, a crash) is reached again within 2 s of being back: by default the channel
    // waits 1 s, then 1.6 times longer each try, up to 2 minutes, and refuses every call (503) until it tries.
    'grpc.initial_reconnect_backoff_ms': 250,
    'grpc.max_reconnect_backoff_ms': 2_000,
  }) as unknown as Record<string, UnaryMethod<unknown, unknown>> & Client;
  const defaultDeadline = options.deadlineMs ?? 5_000;
  const methods: Record<string, unknown> = { close: () => raw.close() };

  for (const [name, definition] of Object.entries(Constructor.service)) {
    // ts-proto names client methods in lowerCamelCase after the RPC.
    const method = name.charAt(0).toLowerCase() + name.slice(1);
    const { requestStream, responseStream } = definition as { requestStream?: boolean; responseStream?: boolean };
    if (requestStream && !responseStream) {
      const open = raw[method] as unknown as ClientStreamingMethod<unknown, unknown>;
      methods[method] = (settings: CallSettings = {}) =>
        openClientStream((metadata, options, callback) => open.call(raw, metadata, options, callback), settings);
      continue;
    }
    methods[method] = (request: unknown, settings: CallSettings = {}) =>
      new Promise((resolve, reject) => {
        const deadline = new Date(Date.now() + (settings.deadlineMs ?? defaultDeadline));
        raw[method]!.call(raw, request, callMetadata(settings), { deadline }, (error, response) =>
          error ? reject(fromGrpcError(error)) : resolve(response),
        );
      });
  }
  return methods as PromiseClient<C>;
}

/** The caller's token (or the given one) and the trace context, as call metadata. */
function callMetadata(settings: CallSettings): Metadata {
  const metadata = new Metadata();
  const token = settings.token ?? currentContext()?.caller?.token;
  if (token) metadata.set('authorization', `Bearer ${token}`);
  propagation.inject(otelContext.active(), metadata, {
    set: (carrier, key, value) => carrier.set(key, value),
  });
  return metadata;
}

/**
 * Opens a client-streaming call with the same metadata, deadline and error
 * mapping as a unary call, as promises that respect backpressure.
 */
function openClientStream<Req, Res>(open: ClientStreamingMethod<Req, Res>, settings: CallSettings): ClientStream<Req, Res> {
  let failure: Error | undefined;
  let call!: ClientWritableStream<Req>;
  const response = new Promise<Res>((resolve, reject) => {
    const deadline = new Date(Date.now() + (settings.deadlineMs ?? STREAM_DEADLINE_MS));
    call = open(callMetadata(settings), { deadline }, (error, answer) => {
      if (error) {
        failure = fromGrpcError(error);
        reject(failure);
      } else resolve(answer);
    });
  });
  response.catch(() => undefined); // surfaced through write() and end()
  return {
    response,
    write(message) {
      if (failure) return Promise.reject(failure);
      return new Promise<void>((resolve, reject) => {
        if (call.write(message)) return resolve();
        const onDrain = () => resolve();
        call.once('drain', onDrain);
        response.then(
          () => {
            call.off('drain', onDrain);
            resolve();
          },
          (error: unknown) => {
            call.off('drain', onDrain);
            reject(error);
          },
        );
      });
    },
    end() {
      call.end();
      return response;
    },
    cancel() {
      call.cancel();
    },
  };
}
