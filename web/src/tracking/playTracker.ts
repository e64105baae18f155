// Play tracking (spec 002, "Play tracking"): a start event begins a record,
// continue events update it, an end event closes it and sends a total-played
// event; the 15-second event goes once between 10 and 20 s, the 30-second one
// once between 25 and 35 s; events from another room or song are ignored.
// Pure: the caller feeds it the player's events and gives it a sender.

export type PlayEvent = 'totalPlayed' | 'played15Sec' | 'played30Sec';

export interface TrackedSong {
  songId: string;
  trackName?: string;
  artistName?: string;
  /** Seconds. */
  duration?: number;
  musicProvider?: string;
  isrc?: string;
}

/** What the room says of the song being played. */
export interface PlayContext {
  roomSlug: string;
  roomOwnerUuid?: string;
  djUuid: string;
  song: TrackedSong;
}

/** Who listens, on what. */
export interface Listener {
  userUuid: string;
  /** The provider the listener's player actually used (youtube, spotify, upload...). */
  userProvider: string;
  /** '' without an active subscription. */
  subscriptionLevel: string;
}

/** Spec 002's play tracking record, with its dates as ISO text. */
export interface PlayRecord {
  userUuid: string;
  roomSlug: string;
  roomOwnerUuid?: string;
  djUuid: string;
  songInfo: TrackedSong;
  startedDate: string;
  updatedDate: string;
  /** 0-100. */
  volumeStart: number;
  volumeEnd: number;
  playId: string;
  sent15sec: boolean;
  sent30sec: boolean;
  userProvider: string;
  subscriptionLevel: string;
}

export type SendPlayEvent = (event: PlayEvent, record: PlayRecord) => void;

const WINDOWS: Record<'played15Sec' | 'played30Sec', [number, number]> = {
  played15Sec: [10_000, 20_000],
  played30Sec: [25_000, 35_000],
};

const toVolume = (volume: number) => Math.round(Math.min(1, Math.max(0, volume)) * 100);

export class PlayTracker {
  private record: PlayRecord | null = null;
  private startedAt = 0;

  constructor(
    private readonly send: SendPlayEvent,
    private readonly now: () => number = () => Date.now(),
    private readonly newPlayId: () => string = () => crypto.randomUUID(),
  ) {}

  /** The open record, if any (read-only: for display and tests). */
  get current(): Readonly<PlayRecord> | null {
    return this.record;
  }

  /** A song starts playing for the listener (volume 0-1). An open record of another song ends first. */
  start(context: PlayContext, listener: Listener, volume: number): void {
    if (this.record && this.matches(context.roomSlug, context.song.songId)) return;
    this.close();
    this.startedAt = this.now();
    const at = new Date(this.startedAt).toISOString();
    this.record = {
      userUuid: listener.userUuid,
      roomSlug: context.roomSlug,
      roomOwnerUuid: context.roomOwnerUuid,
      djUuid: context.djUuid,
      songInfo: context.song,
      startedDate: at,
      updatedDate: at,
      volumeStart: toVolume(volume),
      volumeEnd: toVolume(volume),
      playId: this.newPlayId(),
      sent15sec: false,
      sent30sec: false,
      userProvider: listener.userProvider,
      subscriptionLevel: listener.subscriptionLevel,
    };
  }

  /** The song goes on playing (called every second or so by the player). */
  progress(roomSlug: string, songId: string, volume: number): void {
    if (!this.record || !this.matches(roomSlug, songId)) return;
    this.update(volume);
    const elapsed = this.now() - this.startedAt;
    for (const event of ['played15Sec', 'played30Sec'] as const) {
      const [from, to] = WINDOWS[event];
      const flag = event === 'played15Sec' ? 'sent15sec' : 'sent30sec';
      if (!this.record[flag] && elapsed >= from && elapsed <= to) {
        this.record[flag] = true;
        this.send(event, { ...this.record });
      }
    }
  }

  /** The song stopped for the listener (it ended, they left, another began): the total played is sent. */
  end(roomSlug: string, songId: string, volume?: number): void {
    if (!this.record || !this.matches(roomSlug, songId)) return;
    if (volume !== undefined) this.update(volume);
    this.close();
  }

  private matches(roomSlug: string, songId: string): boolean {
    return this.record?.roomSlug === roomSlug && this.record.songInfo.songId === songId;
  }

  private update(volume: number): void {
    if (!this.record) return;
    this.record.updatedDate = new Date(this.now()).toISOString();
    this.record.volumeEnd = toVolume(volume);
  }

  private close(): void {
    if (!this.record) return;
    this.record.updatedDate = new Date(this.now()).toISOString();
    this.send('totalPlayed', { ...this.record });
    this.record = null;
  }
}
