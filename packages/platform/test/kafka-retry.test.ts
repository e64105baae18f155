import { describe, expect, it, vi } from 'vitest';
import { retryRetriable } from '../src/kafka/client.js';

// A fresh broker answers NOT_COORDINATOR_FOR_GROUP while it makes the offsets topic
// (seen as the audit service's start failing on a fresh CI machine).
const notCoordinator = () =>
  Object.assign(new Error('This is not the correct coordinator for this group'), {
    type: 'NOT_COORDINATOR_FOR_GROUP',
    code: 16,
    retriable: true,
  });

describe('retrying what Kafka calls retriable', () => {
  it('tries again while the error is retriable, and answers the first success', async () => {
    vi.useFakeTimers();
    try {
      const attempt = vi
        .fn<() => Promise<string>>()
        .mockRejectedValueOnce(notCoordinator())
        .mockRejectedValueOnce(notCoordinator())
        .mockResolvedValue('done');
      const answer = retryRetriable(attempt);
      await vi.runAllTimersAsync();
      await expect(answer).resolves.toBe('done');
      expect(attempt).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up at once on an error that is not retriable, and after eight tries on one that stays', async () => {
    const fatal = vi.fn<() => Promise<void>>().mockRejectedValue(new Error('bad config'));
    await expect(retryRetriable(fatal)).rejects.toThrow('bad config');
    expect(fatal).toHaveBeenCalledTimes(1);

    vi.useFakeTimers();
    try {
      const stuck = vi.fn<() => Promise<void>>().mockImplementation(() => Promise.reject(notCoordinator()));
      const answer = retryRetriable(stuck);
      const settled = expect(answer).rejects.toMatchObject({ type: 'NOT_COORDINATOR_FOR_GROUP' });
      await vi.runAllTimersAsync();
      await settled;
      expect(stuck).toHaveBeenCalledTimes(8);
    } finally {
      vi.useRealTimers();
    }
  });

  it('retries any error when asked to (a topic seen before its partitions have leaders)', async () => {
    vi.useFakeTimers();
    try {
      const attempt = vi
        .fn<() => Promise<void>>()
        .mockRejectedValueOnce(new Error('does not host this topic-partition'))
        .mockResolvedValue();
      const answer = retryRetriable(attempt, { all: true });
      await vi.runAllTimersAsync();
      await answer;
      expect(attempt).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
