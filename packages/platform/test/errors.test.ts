import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { AppError, forbidden } from '../src/errors.js';
import { fromGrpcError, toGrpcError } from '../src/grpc/status.js';

function asServiceError(payload: ReturnType<typeof toGrpcError>): ServiceError {
  return Object.assign(new Error(payload.details), { code: payload.code, details: payload.details, metadata: payload.metadata });
}

describe('the error model across gRPC', () => {
  it('keeps the spec status and exact message', () => {
    const back = fromGrpcError(asServiceError(toGrpcError(forbidden('This email is already registered'))));
    expect(back.toBody()).toEqual({ statusCode: 403, message: 'This email is already registered', error: 'Forbidden' });
  });

  it('keeps the error code, and the REST body adds it to the three fields', () => {
    const back = fromGrpcError(asServiceError(toGrpcError(forbidden('You are banned from this room', 'ROOM_BANNED'))));
    expect(back.code).toBe('ROOM_BANNED');
    expect(back.toBody()).toEqual({ statusCode: 403, message: 'You are banned from this room', error: 'Forbidden', code: 'ROOM_BANNED' });
    const throttled = fromGrpcError(asServiceError(toGrpcError(new AppError(429, 'Slow down', { code: 'LIMITED', retryAfterSeconds: 7 }))));
    expect(throttled).toMatchObject({ status: 429, code: 'LIMITED', retryAfterSeconds: 7 });
  });

  it('has no code where the service gave none', () => {
    const back = fromGrpcError(asServiceError(toGrpcError(forbidden('No'))));
    expect(back.code).toBeUndefined();
    expect(back.toBody()).not.toHaveProperty('code');
  });

  it('keeps a list of validation messages', () => {
    const back = fromGrpcError(asServiceError(toGrpcError(new AppError(400, ['a is wrong', 'b is wrong']))));
    expect(back.messages).toEqual(['a is wrong', 'b is wrong']);
  });

  it('never leaks the text of an unexpected error', () => {
    const payload = toGrpcError(new Error('password=hunter2 at db.ts:12'));
    expect(payload.code).toBe(status.INTERNAL);
    expect(payload.details).toBe('Internal Server Error');
    expect(fromGrpcError(asServiceError(payload)).toBody()).toEqual({ statusCode: 502, message: 'Bad Gateway', error: 'Bad Gateway' });
  });

  it('maps transport failures to 503 and 504', () => {
    const unavailable = Object.assign(new Error('x'), { code: status.UNAVAILABLE, details: 'No connection', metadata: new Metadata() });
    const late = Object.assign(new Error('x'), { code: status.DEADLINE_EXCEEDED, details: 'Deadline', metadata: new Metadata() });
    expect(fromGrpcError(unavailable).status).toBe(503);
    expect(fromGrpcError(late).status).toBe(504);
  });
});
