// kafkajs 2.2.4, its last release, re-arms a 1 ms timer for ever on every broker
// connection once a first request is answered, whether or not anything waits
// (tulios/kafkajs#1704, #1751; Node 24 also warns of the negative delay it
// passes). An idle test platform spent 30% of its CPU there. The check is
// needed only while requests wait for a throttle or an in-flight slot: this
// is the request queue's own scheduling, minus the empty re-arm (the fix
// proposed in tulios/kafkajs#1768).
import RequestQueue from 'kafkajs/src/network/requestQueue/index.js';

/** kafkajs's own interval for a queue that waits on in-flight slots (requestQueue/index.js). */
const CHECK_PENDING_REQUESTS_INTERVAL = 10;

RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(this: RequestQueue): void {
  if (this.throttleCheckTimeoutId) return;
  let scheduleAt = this.throttledUntil - Date.now();
  if (this.pending.length > 0) scheduleAt = scheduleAt > 0 ? scheduleAt : CHECK_PENDING_REQUESTS_INTERVAL;
  // Nothing waits and no throttle ends later: a push or an answer checks the queue again.
  else if (scheduleAt <= 0) return;
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null;
    this.checkPendingRequests();
  }, scheduleAt);
};

export { RequestQueue };
