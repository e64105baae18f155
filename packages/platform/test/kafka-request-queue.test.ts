import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestQueue } from '../src/kafka/request-queue-fix.js';

/** A request queue's scheduling state alone (the constructor wants a broker connection). */
function queue(state: { throttledUntil: number; pending: unknown[] }) {
  const q = Object.create(RequestQueue.prototype) as RequestQueue;
  Object.assign(q, { ...state, throttleCheckTimeoutId: null });
  q.checkPendingRequests = vi.fn();
  return q;
}

describe("kafkajs's request queue, without its idle 1 ms loop", () => {
  afterEach(() => vi.useRealTimers());

  it('arms no timer when nothing waits and no throttle is on', () => {
    vi.useFakeTimers();
    const q = queue({ throttledUntil: -1, pending: [] });
    q.scheduleCheckPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
    vi.advanceTimersByTime(1000);
    expect(q.checkPendingRequests).not.toHaveBeenCalled();
  });

  it('checks waiting requests soon, and a throttled queue when its throttle ends', () => {
    vi.useFakeTimers();
    const waiting = queue({ throttledUntil: -1, pending: [{}] });
    waiting.scheduleCheckPendingRequests();
    vi.advanceTimersByTime(10);
    expect(waiting.checkPendingRequests).toHaveBeenCalledTimes(1);

    const throttled = queue({ throttledUntil: Date.now() + 500, pending: [] });
    throttled.scheduleCheckPendingRequests();
    vi.advanceTimersByTime(499);
    expect(throttled.checkPendingRequests).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(throttled.checkPendingRequests).toHaveBeenCalledTimes(1);
  });
});
