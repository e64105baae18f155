import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { AppError } from '../errors.js';

// The spec's HTTP status, exact message(s) and the error's code ride in
// trailers, so the BFF can answer exactly what the service decided; the gRPC
// code is the nearest match.
const HTTP_STATUS_KEY = 'http-status';
const MESSAGES_KEY = 'error-messages-bin';
const ERROR_CODE_KEY = 'error-code';
const RETRY_AFTER_KEY = 'retry-after-seconds';

const grpcCodeByHttp: Record<number, GrpcStatus> = {
  400: GrpcStatus.INVALID_ARGUMENT,
  401: GrpcStatus.UNAUTHENTICATED,
  403: GrpcStatus.PERMISSION_DENIED,
  404: GrpcStatus.NOT_FOUND,
  409: GrpcStatus.ALREADY_EXISTS,
  412: GrpcStatus.FAILED_PRECONDITION,
  413: GrpcStatus.RESOURCE_EXHAUSTED,
  429: GrpcStatus.RESOURCE_EXHAUSTED,
  501: GrpcStatus.UNIMPLEMENTED,
  503: GrpcStatus.UNAVAILABLE,
  504: GrpcStatus.DEADLINE_EXCEEDED,
};

const httpByGrpcCode: Partial<Record<GrpcStatus, number>> = {
  [GrpcStatus.INVALID_ARGUMENT]: 400,
  [GrpcStatus.UNAUTHENTICATED]: 401,
  [GrpcStatus.PERMISSION_DENIED]: 403,
  [GrpcStatus.NOT_FOUND]: 404,
  [GrpcStatus.ALREADY_EXISTS]: 409,
  [GrpcStatus.RESOURCE_EXHAUSTED]: 429,
  [GrpcStatus.UNIMPLEMENTED]: 501,
  [GrpcStatus.UNAVAILABLE]: 503,
  [GrpcStatus.DEADLINE_EXCEEDED]: 504,
};

export interface GrpcErrorPayload {
  code: GrpcStatus;
  details: string;
  metadata: Metadata;
}

/** An error thrown by a handler, as the gRPC status to answer with. Unknown errors never leak their text. */
export function toGrpcError(error: unknown): GrpcErrorPayload {
  const metadata = new Metadata();
  if (error instanceof AppError) {
    metadata.set(HTTP_STATUS_KEY, String(error.status));
    metadata.set(MESSAGES_KEY, Buffer.from(JSON.stringify(error.messages)));
    if (error.code) metadata.set(ERROR_CODE_KEY, error.code);
    if (error.retryAfterSeconds !== undefined) metadata.set(RETRY_AFTER_KEY, String(error.retryAfterSeconds));
    const code = grpcCodeByHttp[error.status] ?? (error.status >= 500 ? GrpcStatus.INTERNAL : GrpcStatus.FAILED_PRECONDITION);
    return { code, details: error.message, metadata };
  }
  return { code: GrpcStatus.INTERNAL, details: 'Internal Server Error', metadata };
}

/** A failed call, back as the AppError the service raised (or the nearest HTTP status). */
export function fromGrpcError(error: ServiceError): AppError {
  const status = Number(error.metadata?.get(HTTP_STATUS_KEY)[0]);
  const raw = error.metadata?.get(MESSAGES_KEY)[0];
  if (status >= 400 && status < 600) {
    const messages = raw ? (JSON.parse(raw.toString()) as string | string[]) : error.details;
    const retryAfter = Number(error.metadata.get(RETRY_AFTER_KEY)[0]);
    const code = error.metadata.get(ERROR_CODE_KEY)[0];
    return new AppError(status, messages, {
      ...(typeof code === 'string' && code ? { code } : {}),
      ...(retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
    });
  }
  const mapped = httpByGrpcCode[error.code];
  if (mapped === 503 || mapped === 504) return new AppError(mapped, mapped === 503 ? 'Service Unavailable' : 'Gateway Timeout');
  return new AppError(mapped && mapped < 500 ? mapped : 502, mapped && mapped < 500 ? error.details : 'Bad Gateway');
}
