import type { RoomServiceClient } from '@spinroom/contracts/room/v1/room_service';
import { userRoles } from '@spinroom/contracts/vocabulary';
import { UserRole } from '@spinroom/contracts/room/v1/room_vocabulary';
import type { PromiseClient, ServiceTokenSource } from '@spinroom/platform';
import type { RoomEntrance } from '../domain/consumables.js';

/** The room service's GetRoomAccess, asked as the points service itself (its `service` token). */
export class RoomServiceEntrance implements RoomEntrance {
  constructor(
    private readonly rooms: PromiseClient<RoomServiceClient>,
    private readonly serviceToken: ServiceTokenSource,
  ) {}

  async standing(roomUuid: string, userUuid: string, role: string): Promise<{ removed: boolean; message: string }> {
    const access = await this.rooms.getRoomAccess(
      { roomUuid, userUuid, tokenRole: userRoles.parse(role) ?? UserRole.USER_ROLE_UNSPECIFIED },
      { token: await this.serviceToken.token() },
    );
    const removed = access.banned || access.refusalCode === 'ROOM_BANNED' || access.refusalCode === 'ROOM_KICKED';
    return { removed, message: access.refusalMessage };
  }
}
