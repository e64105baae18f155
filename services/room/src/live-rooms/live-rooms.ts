import { randomInt, randomUUID } from 'node:crypto';
import type { OneTimeAnimationName } from '@spinroom/contracts/vocabulary';
import { badRequest, forbidden, isAppError, type Caller, type Logger } from '@spinroom/platform';
import { emptyLiveRoom, type LiveRoom, type Member, type MinimalCrateSong, type SongVotes, type StageRules } from '../domain/live/state.js';
import * as live from '../domain/live/transitions.js';
import * as members from '../domain/live/members.js';
import { clientStateJson } from '../domain/live/state-json.js';
import { restoration } from '../domain/live/recovery.js';
import type { Entrant, RoomFee } from '../domain/entry-fees.js';
import {
  decodePending,
  encodePending,
  givenUp,
  pendingEffects,
  refusedForGood,
  replayOrder,
  stageChange,
  type PendingEffect,
} from '../domain/live/pending-effects.js';
import { closingFrame, type LiveStore, type StoredRoom } from './live-store.js';

/** What the live rooms need to know about a room and a user in it (the room records). */
export interface RoomDirectory {
  /** Lets the caller in (bans, kicks, the password; records a recent room), or refuses with the reason. */
  enter(caller: Caller, roomUuid: string, password: string | undefined): Promise<RoomAccess>;
  /** The room's settings and what the user may do there, without entry checks. */
  access(roomUuid: string, user: Pick<Caller, 'userUuid' | 'role'>): Promise<RoomAccess>;
  /** The room's settings and rules alone, for nobody in particular (a room the engine opens or refreshes). */
  room(roomUuid: string): Promise<RoomAccess>;
}

export interface RoomAccess {
  /** The room as the original's `RoomDto`. */
  settings: Record<string, unknown>;
  rules: StageRules;
  highestRole: string | undefined;
  canDj: boolean;
  /** The room's entry fee, free entries and owner (paid rooms). */
  fee: RoomFee;
}

/** The door of a paid room (entry-fees.ts): runs a join as the entrant's entry, charging the fee when it applies. */
export interface EntryGate {
  enter<T>(roomUuid: string, room: RoomFee, who: Entrant, join: () => Promise<T>, undo: () => Promise<void>): Promise<T>;
}

/** DJs' queues in the playlist service. */
export interface Queues {
  /** The first songs of a DJ's queue (called on no user's request: the room's clock). */
  head(djUuid: string, limit: number): Promise<MinimalCrateSong[]>;
  /** Moves the song just played to the end of the DJ's queue, once per play. */
  requeue(djUuid: string, crateSongUuid: string, playId: string): Promise<void>;
  /** Adds the song to the user's likes crate (a star vote), once per play and user. */
  snag(userUuid: string, playId: string, song: MinimalCrateSong): Promise<void>;
}

export interface Profiles {
  /** The caller's profile as other users see it (`OtherUserProfileResDto`, or a ghost for guests). */
  of(caller: Caller): Promise<Record<string, unknown>>;
}

/** Who took and who left the stage in one stored change, and the stage after it (`changeId`: the change's own id, the event's). */
export type StageChange = Omit<Extract<live.Effect, { type: 'stageChanged' }>, 'type'>;

/** Records each played song (recent songs) and announces it, and each change of the stage, on `room-events`: each once (by play id, by change id), however often it is run. */
export interface PlayLog {
  songPlayed(play: Extract<live.Effect, { type: 'songPlayed' }>): Promise<void>;
  stageChanged(change: StageChange): Promise<void>;
}

export interface LiveRoomsConfig {
  /** The longest any play lasts (ms); tests set seconds. Undefined: the song's own length. */
  maxPlayMs?: number;
  /** How long a user stays after their last connection closed (ms). */
  leaveGraceMs: number;
  /** How long a warned AFK DJ has before leaving the stage (ms). */
  afkGraceMs: number;
  /** A connection not kept alive for this long is gone (ms). */
  connectionTtlMs: number;
  /** How long a stored change's effects wait before a sweep (any replica) runs them again (ms): longer than they normally take. */
  effectsRetryMs: number;
  /** A room's joins enter at most this often when they come faster (ms; `queueJoin`). Default JOIN_INTERVAL_MS. */
  joinIntervalMs?: number;
}

/**
 * A busy room's joins enter together at most this often (ms): each entry is
 * one `userJoined` to every socket in the room, so the joins of a room
 * filling fast are gathered for this long (a quiet room's join enters at
 * once), and a room of thousands gets a few such messages a second, not one
 * per join.
 */
export const JOIN_INTERVAL_MS = 100;

export interface JoinResult {
  roomUuid: string;
  version: number;
  /** The state as joinRoom answers it: `allUserData` empty ('' when the join asked for the version only). */
  stateJson: string;
  allUserDataJson: string;
}

/** A room's state as a joiner is answered with it, serialized (`clientStateJson`). */
type JoinState = { stateJson: string; allUserDataJson: string };

const MAX_ATTEMPTS = 20;

type JoinInput = { member: Member; profile: Record<string, unknown>; position: { x: number; y: number } };

interface Joiner {
  input: JoinInput;
  /** Answered with the version alone: the caller fetches the state apart (`joinState`), once for all its joiners. */
  versionOnly: boolean;
  resolve: (result: JoinResult) => void;
  reject: (error: unknown) => void;
}

interface Leaver {
  userUuid: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}
const QUEUE_LOOKAHEAD = 10;

/**
 * The live rooms: each change loads the room from Redis, applies a rule from
 * domain/live, and stores it with a compare-and-set that publishes the patch;
 * a lost race is retried on the fresh state. Side effects (requeue, play log)
 * run once, by whoever stored the change.
 */
export class LiveRooms {
  /** Each room's last queued change in this replica (see `serialized`). */
  private readonly pending = new Map<string, Promise<void>>();
  /** Each room's joins and leaves waiting for its turn (see `queueJoin`, `leave`). */
  private readonly joining = new Map<string, Joiner[]>();
  /** When each room last let joins in, kept for the interval after (performance.now()). */
  private readonly lastEntries = new Map<string, number>();
  private readonly leaving = new Map<string, Leaver[]>();
  /**
   * The join state of each stored room serialized so far, by the stored room
   * (a write makes a new one, and the store keeps the latest of each room it
   * caches): serialized once per version, however many joiners and BFFs ask.
   */
  private readonly joinStates = new WeakMap<StoredRoom, JoinState>();

  constructor(
    private readonly store: LiveStore,
    private readonly directory: RoomDirectory,
    private readonly queues: Queues,
    private readonly profiles: Profiles,
    private readonly plays: PlayLog,
    private readonly fees: EntryGate,
    private readonly config: LiveRoomsConfig,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    store.whenLost((held, first) => this.recover(held, first));
  }

  /**
   * Redis lost the live rooms (flushed, or restarted without its data): the
   * rooms this replica held are written back (recovery.ts), each resetting its
   * sockets, then, by the replica that found the loss, every BFF is told to
   * reset all its sockets in rooms (those of rooms no replica held rejoin a
   * room rebuilt from its records). Clients rejoin and get the whole state.
   */
  private async recover(held: StoredRoom[], first: boolean): Promise<void> {
    const now = this.now();
    let restored = 0;
    for (const stored of held) {
      const plan = restoration(stored.room, { now, leaveGraceMs: this.config.leaveGraceMs, afkGraceMs: this.config.afkGraceMs });
      try {
        if (await this.store.restore(stored, plan, now)) restored += 1;
      } catch (error) {
        this.logger.error({ err: error, roomUuid: stored.room.roomUuid }, 'live room not restored');
      }
    }
    this.logger.warn({ held: held.length, restored, first }, 'Redis lost the live rooms: restored the rooms held here');
    if (first) await this.store.announceLoss();
  }

  /**
   * Lets the caller's connection into the room; answers the version their
   * state is at, with that state unless `versionOnly` (then `joinState`
   * answers it, once per version for every joiner).
   */
  async join(
    caller: Caller,
    roomUuid: string,
    input: { password?: string; connectionId: string; versionOnly?: boolean },
  ): Promise<JoinResult> {
    const access = await this.directory.enter(caller, roomUuid, input.password);
    // A paid room charges an entry, not a reconnect: someone still in the room (another tab, a dropped socket) enters free.
    const present =
      access.fee.entryFee > 0 && ((await this.store.load(roomUuid))?.room.server.members.some((m) => m.uuid === caller.userUuid) ?? false);
    const who = { userUuid: caller.userUuid, kind: caller.kind, tokenRole: caller.role, highestRole: access.highestRole, present };
    return this.fees.enter(
      roomUuid,
      access.fee,
      who,
      async () => {
        const profile = await this.profiles.of(caller);
        const member: Member = { uuid: caller.userUuid, tokenRole: caller.role, highestRole: access.highestRole, canDj: access.canDj };
        await this.store.connect(roomUuid, input.connectionId, caller.userUuid, this.now());
        const position = { x: randomInt(0, 1000) / 1000, y: randomInt(0, 1000) / 1000 };
        return this.queueJoin(roomUuid, access, { member, profile, position }, input.versionOnly ?? false);
      },
      () => this.disconnect(roomUuid, input.connectionId, true),
    );
  }

  private get joinIntervalMs(): number {
    return this.config.joinIntervalMs ?? JOIN_INTERVAL_MS;
  }

  /**
   * Joins wait for the room's turn together: the joins that came while the
   * room was busy, or within `joinIntervalMs` of its last entry, enter in one
   * write and one `userJoined` (members.ts), whatever the room's size, and
   * share one answer.
   */
  private queueJoin(roomUuid: string, access: RoomAccess, input: JoinInput, versionOnly: boolean): Promise<JoinResult> {
    return new Promise((resolve, reject) => {
      let queue = this.joining.get(roomUuid);
      if (!queue) {
        const fresh: Joiner[] = [];
        this.joining.set(roomUuid, fresh);
        queue = fresh;
        const enter = () =>
          void this.serialized(roomUuid, () => {
            if (this.joining.get(roomUuid) === fresh) this.joining.delete(roomUuid);
            const at = performance.now();
            this.lastEntries.set(roomUuid, at);
            setTimeout(() => {
              if (this.lastEntries.get(roomUuid) === at) this.lastEntries.delete(roomUuid);
            }, this.joinIntervalMs).unref();
            return this.enterTogether(roomUuid, access, fresh);
          });
        // A room that let joins in less than the interval ago gathers the next ones until it ends.
        const wait = (this.lastEntries.get(roomUuid) ?? -Infinity) + this.joinIntervalMs - performance.now();
        if (wait > 0) setTimeout(enter, wait);
        else enter();
      }
      queue.push({ input, versionOnly, resolve, reject });
    });
  }

  /**
   * The state a joiner is answered with, at the room's current version (at
   * least `minVersion`, the version a join of the caller's was answered with):
   * serialized once per version. Read in the room's turn, so no join or leave
   * of this replica changes the room while it is serialized.
   */
  joinState(roomUuid: string, minVersion: number): Promise<JoinResult> {
    return this.serialized(roomUuid, async () => {
      const stored = await this.store.load(roomUuid);
      // Gone, or behind a version already answered (Redis lost the rooms: the feed's sockets are reset).
      if (!stored || stored.version < minVersion) throw new Error(`room ${roomUuid}: no live state at version ${minVersion} or later`);
      return this.answer(roomUuid, stored, false);
    });
  }

  /** A joiner's answer from the stored room: the version, and the state unless `versionOnly`. */
  private answer(roomUuid: string, stored: StoredRoom, versionOnly: boolean): JoinResult {
    if (versionOnly) return { roomUuid, version: stored.version, stateJson: '', allUserDataJson: '' };
    let state = this.joinStates.get(stored);
    if (!state) {
      state = clientStateJson(stored.room.client);
      this.joinStates.set(stored, state);
    }
    return { roomUuid, version: stored.version, ...state };
  }

  private async enterTogether(roomUuid: string, access: RoomAccess, joiners: Joiner[]): Promise<void> {
    let pending = joiners;
    try {
      for (let attempt = 0; attempt < MAX_ATTEMPTS && pending.length > 0; attempt += 1) {
        const stored = await this.opened(roomUuid, access);
        if (!stored) continue;
        const now = this.now();
        const batch = members.arrivalBatch(stored.room);
        const arrivals: members.Arrival[] = [];
        const arriving: Joiner[] = [];
        const others: Joiner[] = [];
        for (const joiner of pending) {
          try {
            const entry = stored.legacy ? null : members.arrival(stored.room, { ...joiner.input, now }, batch);
            if (entry) {
              arrivals.push(entry);
              arriving.push(joiner);
            } else others.push(joiner);
          } catch (error) {
            joiner.reject(error); // the room is full
          }
        }
        let current: StoredRoom = stored;
        if (arrivals.length > 0) {
          const saved = await this.store.addUsers(stored, arrivals, now);
          if (!saved) {
            pending = [...arriving, ...others];
            continue;
          }
          for (const joiner of arriving) joiner.resolve(this.answer(roomUuid, saved, joiner.versionOnly));
          current = saved;
        }
        pending = [];
        // Someone already in (a second tab, a reconnect: a BFF's whole audience after it died): when the
        // rules change nothing for them, they share one answer from the state in hand; the others (new
        // roles, say) go through the rules one at a time.
        const changing: Joiner[] = [];
        for (const joiner of others) {
          let transition: ReturnType<typeof live.join> | undefined;
          try {
            transition = stored.legacy ? undefined : live.join(current.room, { ...joiner.input, now });
          } catch {
            transition = undefined; // the rules' refusal is answered by enterNow
          }
          if (transition === null) joiner.resolve(this.answer(roomUuid, current, joiner.versionOnly));
          else changing.push(joiner);
        }
        for (const joiner of changing)
          await this.enterNow(roomUuid, access, joiner.input, joiner.versionOnly).then(joiner.resolve, joiner.reject);
      }
      for (const joiner of pending) joiner.reject(new Error(`room ${roomUuid}: too many concurrent changes`));
    } catch (error) {
      for (const joiner of pending) joiner.reject(error);
    }
  }

  /** One join through the rules (`join` of transitions.ts), in the room's turn; answers the state at the version stored. */
  private async enterNow(roomUuid: string, access: RoomAccess, input: JoinInput, versionOnly: boolean): Promise<JoinResult> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const stored = await this.opened(roomUuid, access);
      if (!stored) continue;
      const transition = live.join(stored.room, { ...input, now: this.now() });
      const result = transition ? await this.save(stored, transition) : stored;
      if (result) return this.answer(roomUuid, result, versionOnly);
    }
    throw new Error(`room ${roomUuid}: too many concurrent changes`);
  }

  /**
   * A connection closed. When it was the user's last one, they leave now if
   * they left on purpose; after the grace period if it dropped, unless they come back.
   */
  async disconnect(roomUuid: string, connectionId: string, left = false): Promise<void> {
    const leaving = await this.store.disconnect(roomUuid, connectionId, left ? null : this.now() + this.config.leaveGraceMs);
    // Another tab of theirs may have joined in the meantime (a reload races its own close).
    if (leaving && !(await this.store.userConnected(roomUuid, leaving))) await this.leave(roomUuid, leaving);
  }

  async keepAlive(entries: Array<{ roomUuid: string; connectionId: string; userUuid: string }>): Promise<void> {
    await this.store.keepAlive(entries, this.now());
  }

  async addDj(caller: Caller, roomUuid: string, song: MinimalCrateSong | undefined): Promise<number> {
    await this.followRoles(caller, roomUuid);
    const next = song ?? (await this.queues.head(caller.userUuid, 2))[0] ?? null;
    return this.act(roomUuid, (room) => live.addDj(room, caller.userUuid, next, song !== undefined, this.now()));
  }

  async removeDj(caller: Caller, roomUuid: string, djUuid: string | undefined): Promise<number> {
    if (djUuid && djUuid !== caller.userUuid) await this.followRoles(caller, roomUuid);
    return this.act(roomUuid, (room) => live.removeDj(room, caller.userUuid, djUuid ?? caller.userUuid, this.now()));
  }

  updateNextSong(caller: Caller, roomUuid: string, song: MinimalCrateSong): Promise<number> {
    return this.act(roomUuid, (room) => live.updateNextSong(room, caller.userUuid, song, true, this.now()));
  }

  voteOnSong(caller: Caller, roomUuid: string, votes: SongVotes): Promise<number> {
    return this.act(roomUuid, (room) => live.voteOnSong(room, caller.userUuid, votes, this.now()));
  }

  async joinWaitlist(caller: Caller, roomUuid: string): Promise<number> {
    await this.followRoles(caller, roomUuid);
    return this.act(roomUuid, (room) => live.joinWaitlist(room, caller.userUuid));
  }

  async leaveWaitlist(caller: Caller, roomUuid: string, userUuid: string | undefined): Promise<number> {
    if (userUuid && userUuid !== caller.userUuid) await this.followRoles(caller, roomUuid);
    return this.act(roomUuid, (room) => live.leaveWaitlist(room, caller.userUuid, userUuid ?? caller.userUuid));
  }

  async moveInWaitlist(caller: Caller, roomUuid: string, userUuid: string, position: number): Promise<number> {
    await this.followRoles(caller, roomUuid);
    return this.act(roomUuid, (room) => live.moveInWaitlist(room, caller.userUuid, userUuid, position));
  }

  /**
   * Before an action that depends on the caller's roles: the live state takes
   * them from the room records now, so an expired role (a djDisabled that
   * ended, a moderator role that lapsed) counts as expired.
   */
  private async followRoles(caller: Caller, roomUuid: string): Promise<void> {
    const access = await this.directory.access(roomUuid, caller);
    await this.change(roomUuid, (room) =>
      live.withMember(room, { uuid: caller.userUuid, highestRole: access.highestRole, canDj: access.canDj }, this.now()),
    );
  }

  leaveAfterSong(caller: Caller, roomUuid: string, enabled: boolean): Promise<number> {
    return this.act(roomUuid, (room) => live.leaveAfterSong(room, caller.userUuid, enabled, this.now()));
  }

  /** The playing DJ or a moderator ends the song; the next DJ plays at once. */
  async skipSong(caller: Caller, roomUuid: string): Promise<number> {
    await this.followRoles(caller, roomUuid);
    return this.serialized(roomUuid, async () => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const stored = await this.loaded(roomUuid);
        live.checkSkip(stored.room, caller.userUuid);
        const queues = await this.upcomingQueues(stored.room);
        const transition = live.advance(stored.room, { now: this.now(), queues, maxPlayMs: this.config.maxPlayMs, force: true });
        const saved = transition && (await this.save(stored, transition));
        if (saved) return saved.version;
      }
      throw new Error(`room ${roomUuid}: too many concurrent changes`);
    });
  }

  async playOneTimeAnimation(caller: Caller, roomUuid: string, animation: OneTimeAnimationName, emoji: string | undefined): Promise<void> {
    const stored = await this.loaded(roomUuid);
    if (!stored.room.server.members.some((m) => m.uuid === caller.userUuid)) throw forbidden(live.NOT_IN_ROOM);
    if (animation === 'emoji' && !emoji) throw badRequest('emoji is required for the emoji animation');
    // Only a DJ's action resets their AFK clock; the check is cheap, the copy `touch` makes is not.
    if (stored.room.client.djs.some((d) => d.uuid === caller.userUuid)) {
      // Internal only (an AFK clock reset): a lost race just means someone else's change went first.
      await this.serialized(roomUuid, async () => {
        const fresh = await this.loaded(roomUuid);
        const touched = live.touch(fresh.room, caller.userUuid, this.now());
        if (touched)
          await this.store.save(fresh, touched, { name: null, due: live.nextDue(touched, this.config.afkGraceMs), now: this.now() });
      });
    }
    await this.store.publish(
      roomUuid,
      [{ name: 'playedOneTimeAnimation', params: { userUuid: caller.userUuid, animation, ...(emoji ? { emoji } : {}) } }],
      this.now(),
    );
  }

  /** A user was kicked or banned: they hear so, their connections close, and they leave the room now. */
  async kick(roomUuid: string, userUuid: string, reason: string): Promise<void> {
    await this.store.publishFrame(
      roomUuid,
      closingFrame(roomUuid, 'k', { name: 'kickedFromRoom', params: { reason } }, this.now(), userUuid),
    );
    await this.leave(roomUuid, userUuid);
  }

  /** The room's settings or a member's roles changed: the state follows. */
  async refresh(roomUuid: string, userUuid?: string): Promise<void> {
    const existing = await this.store.load(roomUuid);
    if (!existing) return;
    const access = userUuid ? await this.directory.access(roomUuid, { userUuid, role: 'user' }) : await this.directory.room(roomUuid);
    await this.change(roomUuid, (room) => {
      if (userUuid) return live.withMember(room, { uuid: userUuid, highestRole: access.highestRole, canDj: access.canDj }, this.now());
      return live.updateSettings(room, access.settings, access.rules, this.now());
    });
  }

  /** Everyone reconnects and rejoins (after the room was deleted, or its state could not be trusted). */
  async reset(roomUuid: string, deleted = false): Promise<void> {
    await this.store.publishFrame(roomUuid, closingFrame(roomUuid, 'r', { name: 'roomReset', params: {} }, this.now()));
    if (deleted) await this.store.delete(roomUuid);
  }

  /**
   * A user leaves. Leaves wait for the room's turn together, as joins do:
   * those who hold nothing else in the room leave in one write and one
   * `userLeft` (members.ts); DJs, those in line and voters through the rules.
   */
  async leave(roomUuid: string, userUuid: string): Promise<void> {
    if (!(await this.store.load(roomUuid))) return;
    return new Promise((resolve, reject) => {
      let queue = this.leaving.get(roomUuid);
      if (!queue) {
        const fresh: Leaver[] = [];
        this.leaving.set(roomUuid, fresh);
        queue = fresh;
        void this.serialized(roomUuid, () => {
          if (this.leaving.get(roomUuid) === fresh) this.leaving.delete(roomUuid);
          return this.leaveTogether(roomUuid, fresh).then(
            () => {
              for (const l of fresh) l.resolve();
            },
            (error: unknown) => {
              for (const l of fresh) l.reject(error);
            },
          );
        });
      }
      queue.push({ userUuid, resolve, reject });
    });
  }

  private async leaveTogether(roomUuid: string, leavers: Leaver[]): Promise<void> {
    const userUuids = leavers.map((l) => l.userUuid);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const stored = await this.store.load(roomUuid);
      if (!stored) return;
      const { quick, ruled } = stored.legacy ? { quick: [], ruled: userUuids } : members.departures(stored.room, userUuids);
      if (quick.length > 0 && !(await this.store.removeUsers(stored, quick, this.now()))) continue;
      for (const userUuid of ruled) await this.changeNow(roomUuid, (room) => live.leave(room, userUuid, this.now()));
      return;
    }
    throw new Error(`room ${roomUuid}: too many concurrent changes`);
  }

  /** The present users' uuids (for the room's REST answers). */
  async snapshot(roomUuid: string): Promise<StoredRoom | null> {
    return this.store.load(roomUuid);
  }

  // --- the clock ---

  /** Does whatever is due in the room: the next song, AFK warnings and removals. */
  tick(roomUuid: string): Promise<void> {
    return this.serialized(roomUuid, () => this.tickNow(roomUuid));
  }

  private async tickNow(roomUuid: string): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const stored = await this.store.load(roomUuid);
      if (!stored) return;
      const now = this.now();
      const afk = live.checkAfk(stored.room, { now, graceMs: this.config.afkGraceMs });
      if (afk) {
        if (!(await this.save(stored, afk))) continue;
        continue; // look again: the stage may have changed
      }
      if (live.needsAdvance(stored.room, now)) {
        const queues = await this.upcomingQueues(stored.room);
        const transition = live.advance(stored.room, { now: this.now(), queues, maxPlayMs: this.config.maxPlayMs });
        if (transition && !(await this.save(stored, transition))) continue;
        if (transition) return;
      }
      await this.store.setDue(stored, live.nextDue(stored.room, this.config.afkGraceMs));
      return;
    }
  }

  /** Users whose last connection closed long enough ago leave. */
  async sweepDepartures(): Promise<void> {
    for (const { roomUuid, userUuid } of await this.store.claimDepartures(this.now())) {
      if (await this.store.userConnected(roomUuid, userUuid)) continue;
      await this.leave(roomUuid, userUuid).catch((error: unknown) => this.logger.error({ err: error, roomUuid }, 'leave failed'));
    }
  }

  async sweepStaleConnections(): Promise<void> {
    const now = this.now();
    for (const roomUuid of await this.store.liveRoomUuids()) {
      await this.store.sweepStaleConnections(roomUuid, now - this.config.connectionTtlMs, now + this.config.leaveGraceMs);
    }
  }

  async liveRoomCount(): Promise<number> {
    return (await this.store.liveRoomUuids()).length;
  }

  dueRooms(): Promise<string[]> {
    return this.store.dueRooms(this.now());
  }

  // --- plumbing ---

  private async loaded(roomUuid: string): Promise<StoredRoom> {
    const stored = await this.store.load(roomUuid);
    if (!stored) throw forbidden(live.NOT_IN_ROOM);
    return stored;
  }

  private async act(roomUuid: string, rule: (room: LiveRoom) => live.Transition): Promise<number> {
    await this.loaded(roomUuid);
    return (await this.change(roomUuid, rule)).stored.version;
  }

  /** Applies `rule` to the stored room (made from the room's records the first time) until it sticks. */
  private change(roomUuid: string, rule: (room: LiveRoom) => live.Transition | null, known?: RoomAccess): Promise<{ stored: StoredRoom }> {
    return this.serialized(roomUuid, () => this.changeNow(roomUuid, rule, known));
  }

  /**
   * Runs a room's changes one at a time within this replica: concurrent
   * actions on a busy room would otherwise keep losing the compare-and-set to
   * each other. Replicas still race, and the compare-and-set settles that.
   */
  private serialized<T>(roomUuid: string, work: () => Promise<T>): Promise<T> {
    const previous = this.pending.get(roomUuid) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.pending.set(roomUuid, tail);
    void tail.then(() => {
      if (this.pending.get(roomUuid) === tail) this.pending.delete(roomUuid);
    });
    return run;
  }

  private async changeNow(
    roomUuid: string,
    rule: (room: LiveRoom) => live.Transition | null,
    known?: RoomAccess,
  ): Promise<{ stored: StoredRoom }> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const stored = await this.opened(roomUuid, known);
      if (!stored) continue;
      const transition = rule(stored.room);
      if (!transition) return { stored };
      const saved = await this.save(stored, transition);
      if (saved) return { stored: saved };
    }
    throw new Error(`room ${roomUuid}: too many concurrent changes`);
  }

  /** The stored room, made from the room's records the first time (null: another writer made it first; load again). */
  private async opened(roomUuid: string, known?: RoomAccess): Promise<StoredRoom | null> {
    const stored = await this.store.load(roomUuid);
    if (stored) return stored;
    const access = known ?? (await this.directory.room(roomUuid));
    const fresh = emptyLiveRoom(roomUuid, access.settings, access.rules);
    const created = await this.store.save(null, fresh, { name: 'updatedRoomSettings', due: null, now: this.now() });
    return created ? this.store.load(roomUuid) : null;
  }

  /**
   * Stores a transition with its effects (kept until they have run, in the
   * same script); on success runs them and, if the clock is already due, ticks.
   */
  private async save(stored: StoredRoom, transition: live.Transition): Promise<StoredRoom | null> {
    const due = live.nextDue(transition.room, this.config.afkGraceMs);
    const now = this.now();
    const stage = stageChange(stored.room, transition.room, randomUUID(), now);
    const effects = stage ? [...transition.effects, stage] : transition.effects;
    const kept = pendingEffects(effects, stored.rev + 1, now).map((pending) => ({ pending, json: encodePending(pending) }));
    const result = await this.store.save(stored, transition.room, {
      name: transition.name,
      stateless: transition.stateless,
      due,
      now,
      ...(kept.length > 0
        ? { effects: { entries: kept.map((k): [string, string] => [k.pending.key, k.json]), sweepAt: now + this.config.effectsRetryMs } }
        : {}),
    });
    if (!result) return null;
    void this.runEffects(transition.room.roomUuid, kept);
    if (due !== null && due <= this.now())
      void this.tick(transition.room.roomUuid).catch((error: unknown) => this.logger.error({ err: error }, 'tick failed'));
    return result;
  }

  /** Runs stored effects in order, each forgotten once it ran; one that fails stays pending for the sweep. */
  private async runEffects(roomUuid: string, kept: Array<{ pending: PendingEffect; json: string }>): Promise<void> {
    for (const { pending, json } of kept) {
      const { effect } = pending;
      try {
        if (effect.type === 'songPlayed') await this.plays.songPlayed(effect);
        else if (effect.type === 'requeue') {
          await this.queues.requeue(effect.djUuid, effect.crateSongUuid, effect.playId);
          await this.refreshNextSong(roomUuid, effect.djUuid);
        } else if (effect.type === 'refreshNextSong') await this.refreshNextSong(roomUuid, effect.djUuid);
        else if (effect.type === 'stageChanged') {
          const { type: _, ...change } = effect;
          await this.plays.stageChanged(change);
        } else await this.queues.snag(effect.userUuid, effect.playId, effect.song);
        await this.store.ackEffect(roomUuid, pending.key, json);
      } catch (error) {
        const refused = refusedForGood(isAppError(error) ? error.status : undefined);
        this.logger.error(
          { err: error, roomUuid, effect: effect.type },
          refused ? 'live room effect refused: dropped' : 'live room effect failed',
        );
        if (refused) await this.store.ackEffect(roomUuid, pending.key, json).catch(() => undefined);
      }
    }
  }

  /**
   * Runs the effects stored changes left pending (their writer crashed, or
   * they failed) once they are due, in any replica: each room is claimed by
   * one sweep at a time. Run by the clock at start and then periodically.
   */
  async replayEffects(): Promise<void> {
    const now = this.now();
    for (const roomUuid of await this.store.claimEffectRooms(now, now + this.config.effectsRetryMs)) {
      const runnable: Array<{ pending: PendingEffect; json: string }> = [];
      for (const [key, json] of await this.store.pendingEffects(roomUuid)) {
        const pending = decodePending(key, json);
        if (pending && !givenUp(pending, now)) runnable.push({ pending, json });
        else {
          this.logger.error({ roomUuid, key, effect: json.slice(0, 1000) }, 'live room effect dropped (unreadable, or failing for a day)');
          await this.store.ackEffect(roomUuid, key, json);
        }
      }
      if (runnable.length === 0) await this.store.ackEffect(roomUuid, '', ''); // nothing left: the room leaves the sweep's set
      await this.runEffects(
        roomUuid,
        replayOrder(runnable, (r) => r.pending),
      );
    }
  }

  private async refreshNextSong(roomUuid: string, djUuid: string): Promise<void> {
    if (!(await this.store.load(roomUuid))) return; // the room closed since (a replay): nothing to refresh
    const queue = await this.queues.head(djUuid, 2);
    await this.change(roomUuid, (room) => live.refreshNextSong(room, djUuid, queue));
  }

  private async upcomingQueues(room: LiveRoom): Promise<Record<string, MinimalCrateSong[]>> {
    const upcoming = live.upcomingDjs(room).filter((d) => d.fromQueue);
    const heads = await Promise.all(upcoming.map(async (d) => [d.djUuid, await this.queues.head(d.djUuid, QUEUE_LOOKAHEAD)] as const));
    return Object.fromEntries(heads);
  }
}
