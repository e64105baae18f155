import type { RoomServiceClient } from '@spinroom/contracts/room/v1/room_service';
import { LiveConnection } from '@spinroom/contracts/room/v1/live_room';
import type { PromiseClient, ServiceTokenSource } from '@spinroom/platform/core';
import type { LiveRoomGateway } from './gateway.js';

const DEADLINE_MS = 5_000;
const LEAVE_BATCH_MS = 50;
const LEAVE_BATCH_SIZE = 1000;

/**
 * The feed's calls to the room service: joins and actions as the connection's
 * user (their token); connection bookkeeping as the BFF itself (a `service` token).
 */
export function grpcLiveRoomGateway(rooms: PromiseClient<RoomServiceClient>, serviceToken: ServiceTokenSource): LiveRoomGateway {
  // Closed connections are reported in batches: a restart or a network blip closes thousands at once.
  const closed: Array<{ roomUuid: string; connectionId: string; userUuid: string; left: boolean }> = [];
  let flushing: Promise<void> | undefined;
  const flush = async () => {
    await new Promise((resolve) => setTimeout(resolve, LEAVE_BATCH_MS));
    while (closed.length > 0) {
      const batch = closed.splice(0, LEAVE_BATCH_SIZE);
      await rooms.leaveLiveRoom(
        { roomUuid: '', connectionId: '', connections: batch },
        { token: await serviceToken.token(), deadlineMs: DEADLINE_MS },
      );
    }
  };
  // A batch that failed is not retried: those connections expire on the room service's TTL sweep.
  const schedule = (): Promise<void> => {
    flushing ??= flush().finally(() => {
      flushing = undefined;
      if (closed.length > 0) void schedule().catch(() => undefined);
    });
    return flushing;
  };
  return {
    async join(caller, input) {
      // The version alone: the whole state comes once per room version (joinState), not in every joiner's answer.
      const joined = await rooms.joinLiveRoom(
        { roomUuid: input.roomUuid, password: input.password ?? '', connectionId: input.connectionId, versionOnly: true },
        { token: caller.token, deadlineMs: DEADLINE_MS },
      );
      const { version, stateJson, allUserDataJson } = joined;
      // A room service that predates version_only answers the state anyway.
      return { roomUuid: joined.roomUuid, version, ...(stateJson ? { state: { version, stateJson, allUserDataJson } } : {}) };
    },
    async joinState(roomUuid, minVersion) {
      const { version, stateJson, allUserDataJson } = await rooms.getLiveRoomJoinState(
        { roomUuid, minVersion },
        { token: await serviceToken.token(), deadlineMs: DEADLINE_MS },
      );
      return { version, stateJson, allUserDataJson };
    },
    async act(caller, roomUuid, action) {
      const { version } = await rooms.performLiveAction({ roomUuid, action }, { token: caller.token, deadlineMs: DEADLINE_MS });
      return { version };
    },
    leave(roomUuid, connectionId, left) {
      closed.push({ roomUuid, connectionId, userUuid: '', left });
      return schedule();
    },
    async keepAlive(connections) {
      await rooms.keepConnectionsAlive(
        { connections: connections.map((c) => LiveConnection.fromPartial(c)) },
        { token: await serviceToken.token(), deadlineMs: DEADLINE_MS },
      );
    },
  };
}
