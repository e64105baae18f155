/**
 * Group commit: writes that arrive while a batch is being written wait and go
 * together in the next one, so a busy account costs one database transaction
 * per batch instead of one per write, and a quiet one waits for nobody (a
 * write that finds its lane idle starts in the next turn of the event loop,
 * with the writes whose requests arrived in the same turn). Writes are spread over a few
 * lanes by what they write to, so writes to one account share a lane (its
 * batches follow one another) and other accounts' batches run beside them.
 */

export interface Queued<W, R> {
  write: W;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/** Per write of a batch, in order: its result, or why it failed. */
export type Settled<R> = { ok: R } | { failed: unknown };

export interface GroupCommitOptions<W> {
  lanes: number;
  /** The most writes one batch takes. */
  maxBatch: number;
  /** Writes with the same lane key share a lane. */
  laneKey: (write: W) => string;
  /** Writes with the same key never share a batch (the later waits for the next). */
  batchKey: (write: W) => string;
}

export class GroupCommit<W, R> {
  private readonly lanes: Array<{ queue: Array<Queued<W, R>>; busy: boolean }>;

  constructor(
    private readonly options: GroupCommitOptions<W>,
    /** Writes one batch in one transaction; throws when the transaction failed as a whole. */
    private readonly writeBatch: (writes: W[]) => Promise<Array<Settled<R>>>,
  ) {
    this.lanes = Array.from({ length: Math.max(1, options.lanes) }, () => ({ queue: [], busy: false }));
  }

  submit(write: W): Promise<R> {
    const lane = this.lanes[laneIndex(this.options.laneKey(write), this.lanes.length)]!;
    return new Promise<R>((resolve, reject) => {
      lane.queue.push({ write, resolve, reject });
      if (!lane.busy) void this.drain(lane);
    });
  }

  private async drain(lane: { queue: Array<Queued<W, R>>; busy: boolean }): Promise<void> {
    lane.busy = true;
    try {
      // Before each batch, one turn of the event loop: the requests whose bytes
      // have already arrived (read in the same poll) are handled and queued
      // first, and go in this batch instead of the next.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (lane.queue.length > 0) {
        const batch = this.take(lane.queue);
        try {
          settle(batch, await this.writeBatch(batch.map((queued) => queued.write)));
        } catch (error) {
          // The transaction failed as a whole (a lost connection, a deadlock): nothing
          // of it was written, so each write is tried again alone and only its own
          // failure reaches its caller.
          if (batch.length === 1) {
            batch[0]!.reject(error);
            continue;
          }
          for (const queued of batch) {
            try {
              settle([queued], await this.writeBatch([queued.write]));
            } catch (alone) {
              queued.reject(alone);
            }
          }
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      lane.busy = false;
    }
  }

  /** The next batch: queued writes in order, one per batch key, at most maxBatch. */
  private take(queue: Array<Queued<W, R>>): Array<Queued<W, R>> {
    const batch: Array<Queued<W, R>> = [];
    const keys = new Set<string>();
    const rest: Array<Queued<W, R>> = [];
    for (const queued of queue) {
      const key = this.options.batchKey(queued.write);
      if (batch.length < this.options.maxBatch && !keys.has(key)) {
        keys.add(key);
        batch.push(queued);
      } else {
        rest.push(queued);
      }
    }
    queue.splice(0, queue.length, ...rest);
    return batch;
  }
}

function settle<W, R>(batch: Array<Queued<W, R>>, results: Array<Settled<R>>): void {
  batch.forEach((queued, i) => {
    const result = results[i];
    if (!result) queued.reject(new Error('a batched write got no result'));
    else if ('ok' in result) queued.resolve(result.ok);
    else queued.reject(result.failed);
  });
}

/** FNV-1a over the key: the same key always lands in the same lane. */
function laneIndex(key: string, lanes: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % lanes;
}
