import {
  credentials,
  Metadata,
  type CallOptions,
  type Client,
  type ClientOptions,
  type ClientUnaryCall,
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

/** A ts-proto grpc-js client as plain async functions: `await users.getSession({})`. */
export type PromiseClient<C> = {
  [K in keyof C as C[K] extends UnaryMethod<any, any> ? K : never]: C[K] extends UnaryMethod<infer Req, infer Res>
    ? (request: Req, options?: CallSettings) => Promise<Res>
    : never;
} & { close(): void };

export interface CallSettings {
  /** Overrides the default deadline for this call. */
  deadlineMs?: number;
  /** Calls as this token instead of the current request's caller (e.g. a service's own token). */
  token?: string;
}

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
  }) as unknown as Record<string, UnaryMethod<unknown, unknown>> & Client;
  const defaultDeadline = options.deadlineMs ?? 5_000;
  const methods: Record<string, unknown> = { close: () => raw.close() };

  for (const name of Object.keys(Constructor.service)) {
    // ts-proto names client methods in lowerCamelCase after the RPC.
    const method = name.charAt(0).toLowerCase() + name.slice(1);
    methods[method] = (request: unknown, settings: CallSettings = {}) =>
      new Promise((resolve, reject) => {
        const metadata = new Metadata();
        const token = settings.token ?? currentContext()?.caller?.token;
        if (token) metadata.set('authorization', `Bearer ${token}`);
        propagation.inject(otelContext.active(), metadata, {
          set: (carrier, key, value) => carrier.set(key, value),
        });
        const deadline = new Date(Date.now() + (settings.deadlineMs ?? defaultDeadline));
        raw[method]!.call(raw, request, metadata, { deadline }, (error, response) =>
          error ? reject(fromGrpcError(error)) : resolve(response),
        );
      });
  }
  return methods as PromiseClient<C>;
}
