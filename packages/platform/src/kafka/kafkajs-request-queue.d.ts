// The part of kafkajs's (untyped) request queue that request-queue-fix.ts replaces.
declare module 'kafkajs/src/network/requestQueue/index.js' {
  class RequestQueue {
    throttledUntil: number;
    pending: unknown[];
    throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
    checkPendingRequests(): void;
    scheduleCheckPendingRequests(): void;
  }
  export default RequestQueue;
}
