import { UserRole, type RoomRefusal, type RoomUserRole } from '@spinroom/contracts/room/v1/room_vocabulary';
import { roomRefusals, roomUserRoles, userRoles } from '@spinroom/contracts/vocabulary';
import { AppError } from '@spinroom/platform';
import type { RoomAccess, RoomAccessPort } from '../domain/ports.js';

/**
 * The room service's GetRoomAccess as the chat service uses it (request
 * {room_uuid, user_uuid, token_role}); typed structurally so the generated
 * RoomServiceClient fits it.
 */
export interface RoomAccessClient {
  getRoomAccess(
    request: { roomUuid: string; userUuid: string; tokenRole: UserRole },
    settings?: { token?: string; deadlineMs?: number },
  ): Promise<{
    mayRead: boolean;
    mayEnter: boolean;
    refusal: RoomRefusal;
    refusalMessage: string;
    banned: boolean;
    chatDisabled?: boolean;
    chatDisabledUntil?: Date | undefined;
    highestRole: RoomUserRole;
  }>;
}

/** Asks the room service, as the chat service itself (a `service` token). */
export class RoomServiceAccess implements RoomAccessPort {
  constructor(
    private readonly client: RoomAccessClient,
    private readonly serviceToken: () => Promise<string>,
  ) {}

  async access(roomUuid: string, userUuid: string, tokenRole: string): Promise<RoomAccess> {
    if (!/^[0-9a-f-]{36}$/i.test(roomUuid)) throw new AppError(404, 'Room not found');
    const answer = await this.client.getRoomAccess(
      { roomUuid, userUuid, tokenRole: userRoles.parse(tokenRole) ?? UserRole.USER_ROLE_UNSPECIFIED },
      { token: await this.serviceToken() },
    );
    return {
      mayRead: answer.mayRead,
      mayEnter: answer.mayEnter,
      refusal: roomRefusals.nameOf(answer.refusal) ?? '',
      refusalMessage: answer.refusalMessage,
      banned: answer.banned,
      chatDisabled: answer.chatDisabled ?? answer.chatDisabledUntil !== undefined,
      chatDisabledUntil: answer.chatDisabledUntil,
      highestRole: roomUserRoles.nameOf(answer.highestRole) ?? '',
    };
  }
}
