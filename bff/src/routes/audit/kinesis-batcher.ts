import type { AnalyticsRecordError, AnalyticsRecordInput, RecordAnalyticsBatchResponse } from '@spinroom/contracts/audit/v1/audit';
import { AppError, runWithContext } from '@spinroom/platform/core';

/** What a `/kinesis` request is answered with once the broker has its record. */
export interface RecordedAnalytics {
  recordId: string;
  topic: string;
}

interface Pending {
  input: AnalyticsRecordInput;
  /** What it weighs in the call, in UTF-16 units: its UTF-8 bytes are at most three times that, still under the limit. */
  bytes: number;
  resolve(recorded: RecordedAnalytics): void;
  reject(error: unknown): void;
}

export interface KinesisBatcherOptions {
  /** The most records in one call. */
  maxBatch: number;
  /**
   * The most bytes of tokens and records in one call (a record alone may pass it): well under
   * the audit service's 8 MiB message limit, so large records never make a call fail for the others.
   */
  maxBytes: number;
  /** Calls out at once; records arriving meanwhile wait for the next one. */
  maxInFlight: number;
}

export const KINESIS_BATCHER_DEFAULTS: KinesisBatcherOptions = { maxBatch: 1000, maxBytes: 2 * 1024 * 1024, maxInFlight: 2 };

/** A refused record's error, back as the AppError the audit service raised. */
export function recordErrorToAppError(error: AnalyticsRecordError): AppError {
  let messages: string | string[];
  try {
    messages = JSON.parse(error.messagesJson) as string | string[];
  } catch {
    messages = error.messagesJson;
  }
  return new AppError(error.httpStatus, messages, error.code ? { code: error.code } : {});
}

/**
 * `/kinesis` requests coalesced into RecordAnalyticsBatch calls, so the audit
 * service pays for one call (and one send to the broker) per batch rather
 * than per record. Records arriving in the same turn of the event loop, or
 * while `maxInFlight` calls are out, share the next call (up to `maxBatch`
 * records and `maxBytes`);
 * nothing waits on a timer. Each request is still answered with its own
 * record's result, once the audit service answered (after the broker
 * acknowledged the record), or refused with its own error; a call that fails
 * as a whole fails each of its requests with that error.
 */
export class KinesisBatcher {
  private readonly queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly send: (records: AnalyticsRecordInput[]) => Promise<RecordAnalyticsBatchResponse>,
    private readonly options: KinesisBatcherOptions = KINESIS_BATCHER_DEFAULTS,
  ) {}

  record(input: AnalyticsRecordInput): Promise<RecordedAnalytics> {
    return new Promise<RecordedAnalytics>((resolve, reject) => {
      const bytes = input.accessToken.length + input.topic.length + input.recordJson.length + 16;
      this.queue.push({ input, bytes, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.inFlight >= this.options.maxInFlight) return;
    this.scheduled = true;
    // Outside any request's context: the call carries no one's token in its metadata, each record its own.
    runWithContext({}, () =>
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      }),
    );
  }

  private flush(): void {
    while (this.queue.length > 0 && this.inFlight < this.options.maxInFlight) {
      let count = 0;
      let bytes = 0;
      while (count < this.queue.length && count < this.options.maxBatch) {
        const next = this.queue[count]!.bytes;
        if (count > 0 && bytes + next > this.options.maxBytes) break;
        bytes += next;
        count += 1;
      }
      const batch = this.queue.splice(0, count);
      this.inFlight += 1;
      void this.call(batch).finally(() => {
        this.inFlight -= 1;
        this.schedule();
      });
    }
  }

  private async call(batch: Pending[]): Promise<void> {
    let response: RecordAnalyticsBatchResponse;
    try {
      response = await this.send(batch.map((pending) => pending.input));
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    batch.forEach((pending, i) => {
      const result = response.results[i];
      if (!result)
        pending.reject(new Error(`RecordAnalyticsBatch answered ${response.results.length} results for ${batch.length} records`));
      else if (result.error) pending.reject(recordErrorToAppError(result.error));
      else pending.resolve({ recordId: result.recordId, topic: result.topic });
    });
  }
}
