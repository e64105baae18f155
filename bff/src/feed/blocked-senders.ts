import type { Logger, ServiceTokenSource } from '@spinroom/platform/core';
import type { SocialClient } from '../routes/social/clients.js';

/** Whose room chat messages a reader does not get live (the feed's `c` frames). */
export interface HiddenSenders {
  /** A connection of the reader joins a room: their list is loaded before frames reach it. */
  watch(reader: string): Promise<void>;
  /** That connection leaves: the list is kept while another connection of the reader is in a room. */
  unwatch(reader: string): void;
  /** Answered from the list held now, without waiting; a list older than the refresh time is read again for later frames. */
  hides(reader: string, sender: string): boolean;
}

interface Entry {
  connections: number;
  hidden: ReadonlySet<string>;
  loadedAt: number;
  loading?: Promise<void>;
}

/**
 * The people each connected reader blocked (the social service's ListBlocks),
 * held while they are in a room and read again when older than `refreshMs`:
 * a block takes effect on the live chat within about that time (room history
 * and direct messages are filtered by the chat service at once). A list that
 * cannot be read hides nobody until it can.
 */
export class BlockedSenders implements HiddenSenders {
  private readonly readers = new Map<string, Entry>();

  constructor(
    private readonly blockedBy: (reader: string) => Promise<string[]>,
    private readonly logger: Logger,
    private readonly refreshMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  async watch(reader: string): Promise<void> {
    let entry = this.readers.get(reader);
    if (!entry) {
      entry = { connections: 0, hidden: new Set(), loadedAt: Number.NEGATIVE_INFINITY };
      this.readers.set(reader, entry);
    }
    entry.connections += 1;
    if (this.now() - entry.loadedAt > this.refreshMs) await this.load(reader, entry);
  }

  unwatch(reader: string): void {
    const entry = this.readers.get(reader);
    if (!entry) return;
    entry.connections -= 1;
    if (entry.connections <= 0) this.readers.delete(reader);
  }

  hides(reader: string, sender: string): boolean {
    const entry = this.readers.get(reader);
    if (!entry) return false;
    if (this.now() - entry.loadedAt > this.refreshMs) void this.load(reader, entry);
    return entry.hidden.has(sender.toLowerCase());
  }

  /** Readers held (tests, metrics). */
  get size(): number {
    return this.readers.size;
  }

  private load(reader: string, entry: Entry): Promise<void> {
    entry.loading ??= this.blockedBy(reader)
      .then(
        (blocked) => {
          entry.hidden = new Set(blocked.map((uuid) => uuid.toLowerCase()));
        },
        (error: unknown) => this.logger.warn({ err: error }, 'blocked users not read; the live chat hides nobody for now'),
      )
      .finally(() => {
        entry.loadedAt = this.now();
        entry.loading = undefined;
      });
    return entry.loading;
  }
}

/** Whom a user blocked, asked of the social service as the BFF itself (a service token). */
export function blockedByFromSocial(
  social: Pick<SocialClient, 'listBlocks'>,
  serviceToken: ServiceTokenSource,
): (reader: string) => Promise<string[]> {
  return async (reader) =>
    (await social.listBlocks({ userUuid: reader }, { token: await serviceToken.token(), deadlineMs: 2_000 })).blockedUuids;
}
