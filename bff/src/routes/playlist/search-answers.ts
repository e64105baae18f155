import { searchKeyText } from '@spinroom/contracts/songs';

/** What a catalogue search asks, as the answer's key (any case and spacing of the same words is one search). */
export interface SearchKey {
  q: string;
  limit: number;
  offset: number;
  explicit: boolean;
}

export interface SearchAnswerOptions {
  /** The catalogue's generation now (platform's watchCatalogueGeneration); undefined: unknown, nothing is reused. */
  generation: () => number | undefined;
  /** Longest an answer is reused within one generation (popularity moves the order without a new generation). */
  maxAgeMs: number;
  /** The answers' bodies kept, in bytes at most (the least recently used leave first). */
  maxBytes: number;
  now?: () => number;
}

interface Entry {
  generation: number;
  at: number;
  body: Promise<Buffer>;
  bytes: number;
}

/**
 * The catalogue search's answers as the BFF sent them (the JSON body), reused
 * while the catalogue's generation stays the same and for at most `maxAgeMs`:
 * a repeated search costs the route's checks and a write, not a gRPC call, the
 * songs' decoding and their JSON. The generation is read before the answer is
 * asked for and the answer kept under it, so it holds every change that
 * generation counts; searches asked at once share one answer. A new
 * generation, or none (Redis not answering), drops every answer kept.
 */
export class SearchAnswers {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** The generation the kept answers were asked under; another one (or none) drops them all. */
  private generation: number | undefined;

  constructor(private readonly options: SearchAnswerOptions) {}

  /** The answer's body; `ask(generation)` makes it (0: the generation is unknown) when no answer of this generation is kept. */
  answer(key: SearchKey, ask: (generation: number) => Promise<Buffer>): Promise<Buffer> {
    const generation = this.options.generation();
    if (generation !== this.generation) {
      // Older answers are never reused again, and a counter Redis lost could come back to their generation.
      this.entries.clear();
      this.bytes = 0;
      this.generation = generation;
    }
    if (generation === undefined || this.options.maxAgeMs <= 0) return ask(0);
    const now = (this.options.now ?? Date.now)();
    const id = JSON.stringify([searchKeyText(key.q), key.limit, key.offset, key.explicit]);
    const kept = this.entries.get(id);
    if (kept) this.remove(id, kept);
    if (kept && kept.generation === generation && now - kept.at < this.options.maxAgeMs) {
      this.entries.set(id, kept); // the most recently used last
      this.bytes += kept.bytes;
      return kept.body;
    }
    const entry: Entry = { generation, at: now, body: ask(generation), bytes: 0 };
    this.entries.set(id, entry);
    entry.body.then(
      (body) => {
        if (this.entries.get(id) !== entry) return;
        entry.bytes = body.length;
        this.bytes += body.length;
        for (const [oldest, e] of this.entries) {
          if (this.bytes <= this.options.maxBytes) break;
          this.remove(oldest, e);
        }
      },
      () => {
        if (this.entries.get(id) === entry) this.remove(id, entry);
      },
    );
    return entry.body;
  }

  /** Bodies kept, in bytes (answers still being asked count none). */
  get size(): number {
    return this.bytes;
  }

  private remove(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.bytes -= entry.bytes;
  }
}
