import type { AnalyticsRecordInput, RecordAnalyticsBatchResponse } from '@spinroom/contracts/audit/v1/audit';
import { AppError, currentContext, runWithContext } from '@spinroom/platform/core';
import { describe, expect, it } from 'vitest';
import { KinesisBatcher } from '../src/routes/audit/kinesis-batcher.js';

const input = (n: number): AnalyticsRecordInput => ({ accessToken: `token-${n}`, topic: 'play-tracking', recordJson: `{"n":${n}}` });

/** A stand-in for RecordAnalyticsBatch: answers each call when told to, refusing the records `refuse` names. */
function audit(refuse: (record: AnalyticsRecordInput) => AppError | undefined = () => undefined) {
  const calls: Array<{ records: AnalyticsRecordInput[]; token: string | undefined; answer(): void; fail(error: Error): void }> = [];
  const send = (records: AnalyticsRecordInput[]) =>
    new Promise<RecordAnalyticsBatchResponse>((resolve, reject) => {
      calls.push({
        records,
        token: currentContext()?.caller?.token,
        answer: () =>
          resolve({
            results: records.map((record, i) => {
              const error = refuse(record);
              return error
                ? {
                    recordId: '',
                    topic: '',
                    error: { httpStatus: error.status, messagesJson: JSON.stringify(error.messages), code: error.code ?? '' },
                  }
                : { recordId: `id-${record.accessToken}-${i}`, topic: record.topic, error: undefined };
            }),
          }),
        fail: reject,
      });
    });
  return { send, calls };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("/kinesis's batcher", () => {
  it('sends the records of one turn in one call, outside any caller, and answers each with its own result', async () => {
    const { send, calls } = audit();
    const batcher = new KinesisBatcher(send, { maxBatch: 100, maxBytes: 1_000_000, maxInFlight: 2 });
    const caller = { userUuid: 'u', role: 'user' as const, kind: 'user' as const, capabilities: [], token: 'callers-token' };
    const answers = runWithContext({ caller }, () => [1, 2, 3].map((n) => batcher.record(input(n))));
    await tick();
    expect(calls.map((call) => call.records.map((record) => record.accessToken))).toEqual([['token-1', 'token-2', 'token-3']]);
    // The call's metadata names no one: each record carries its own token.
    expect(calls[0]!.token).toBeUndefined();
    calls[0]!.answer();
    expect(await Promise.all(answers)).toEqual([
      { recordId: 'id-token-1-0', topic: 'play-tracking' },
      { recordId: 'id-token-2-1', topic: 'play-tracking' },
      { recordId: 'id-token-3-2', topic: 'play-tracking' },
    ]);
  });

  it('answers nothing before the audit service does, and holds records while maxInFlight calls are out', async () => {
    const { send, calls } = audit();
    const batcher = new KinesisBatcher(send, { maxBatch: 2, maxBytes: 1_000_000, maxInFlight: 2 });
    let answered = 0;
    const answers = [1, 2, 3, 4, 5, 6, 7].map((n) => batcher.record(input(n)).then(() => (answered += 1)));
    await tick();
    // Two calls of at most two records; the other three wait for one to come back.
    expect(calls.map((call) => call.records.length)).toEqual([2, 2]);
    await tick();
    expect(answered).toBe(0);
    calls[0]!.answer();
    await tick();
    await tick();
    expect(answered).toBe(2);
    expect(calls.map((call) => call.records.length)).toEqual([2, 2, 2]);
    calls[1]!.answer();
    await tick();
    await tick();
    expect(calls.map((call) => call.records.length)).toEqual([2, 2, 2, 1]);
    calls[2]!.answer();
    calls[3]!.answer();
    await Promise.all(answers);
    expect(answered).toBe(7);
  });

  it('keeps a call under maxBytes, a record larger than it going alone', async () => {
    const { send, calls } = audit();
    const batcher = new KinesisBatcher(send, { maxBatch: 100, maxBytes: 1000, maxInFlight: 4 });
    const sized = (n: number, length: number) => ({ ...input(n), recordJson: 'x'.repeat(length) });
    const answers = [sized(1, 400), sized(2, 400), sized(3, 400), sized(4, 5000), sized(5, 10)].map((record) => batcher.record(record));
    await tick();
    expect(calls.map((call) => call.records.map((record) => record.accessToken))).toEqual([
      ['token-1', 'token-2'],
      ['token-3'],
      ['token-4'],
      ['token-5'],
    ]);
    for (const call of calls) call.answer();
    expect(await Promise.all(answers)).toHaveLength(5);
  });

  it("refuses each refused record with its own error, and every record of a failed call with the call's error", async () => {
    const { send, calls } = audit((record) =>
      record.accessToken === 'token-2'
        ? new AppError(403, 'A record may only be sent for its own user')
        : record.accessToken === 'token-3'
          ? new AppError(400, ['record.playId: too long', 'record.device: required'], { code: 'X' })
          : undefined,
    );
    const batcher = new KinesisBatcher(send, { maxBatch: 100, maxBytes: 1_000_000, maxInFlight: 1 });
    const answers = [1, 2, 3].map((n) =>
      batcher.record(input(n)).then(
        (ok) => ok,
        (error: unknown) => error,
      ),
    );
    await tick();
    calls[0]!.answer();
    const [ok, other, broken] = await Promise.all(answers);
    expect(ok).toEqual({ recordId: 'id-token-1-0', topic: 'play-tracking' });
    expect(other).toBeInstanceOf(AppError);
    expect((other as AppError).toBody()).toEqual({
      statusCode: 403,
      message: 'A record may only be sent for its own user',
      error: 'Forbidden',
    });
    expect((broken as AppError).toBody()).toEqual({
      statusCode: 400,
      message: ['record.playId: too long', 'record.device: required'],
      error: 'Bad Request',
      code: 'X',
    });

    const down = new AppError(503, 'Analytics are not available, please try again');
    const failed = [4, 5].map((n) =>
      batcher.record(input(n)).then(
        (ok) => ok,
        (error: unknown) => error,
      ),
    );
    await tick();
    calls[1]!.fail(down);
    expect(await Promise.all(failed)).toEqual([down, down]);
  });
});
