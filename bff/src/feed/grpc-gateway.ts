import type { RoomServiceClient } from '@spinroom/contracts/room/v1/room_service';
import type { PromiseClient, ServiceTokenSource } from '@spinroom/platform';
import type { LiveRoomGateway } from './gateway.js';

const DEADLINE_MS = 5_000;

/**
 * The feed's calls to the room service: joins and actions as the connection's
 * user (their token); connection bookkeeping as the BFF itself (a `service` token).
 */
export function grpcLiveRoomGateway(rooms: PromiseClient<RoomServiceClient>, serviceToken: ServiceTokenSource): LiveRoomGateway {
  return {
    async join(caller, input) {
      const joined = await rooms.joinLiveRoom(
        { roomUuid: input.roomUuid, password: input.password ?? '', connectionId: input.connectionId },
        { token: caller.token, deadlineMs: DEADLINE_MS },
      );
      return { roomUuid: joined.roomUuid, version: joined.version, stateJson: joined.stateJson, allUserDataJson: joined.allUserDataJson };
    },
    async act(caller, roomUuid, action, params) {
      const { version } = await rooms.performLiveAction({ roomUuid, action, paramsJson: JSON.stringify(params) }, { token: caller.token, deadlineMs: DEADLINE_MS });
      return { version };
    },
    async leave(roomUuid, connectionId) {
      await rooms.leaveLiveRoom({ roomUuid, connectionId }, { token: await serviceToken.token(), deadlineMs: DEADLINE_MS });
    },
    async keepAlive(connections) {
      await rooms.keepConnectionsAlive({ connections }, { token: await serviceToken.token(), deadlineMs: DEADLINE_MS });
    },
  };
}
