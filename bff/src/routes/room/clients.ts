import { CommunityServiceClient } from '@spinroom/contracts/room/v1/community_service';
import { RoomServiceClient } from '@spinroom/contracts/room/v1/room_service';
import { createGrpcClient, type PromiseClient } from '@spinroom/platform/core';

export type RoomClient = PromiseClient<RoomServiceClient>;
export type CommunityClient = PromiseClient<CommunityServiceClient>;

/** The room service's clients on its one address: RoomService, with CommunityService beside it as `communities`. */
export type RoomClients = RoomClient & { communities?: CommunityClient };

export function createRoomClients(address: string): RoomClients {
  return Object.assign(createGrpcClient(RoomServiceClient, address), { communities: createGrpcClient(CommunityServiceClient, address) });
}

export function closeRoomClients(clients: RoomClients): void {
  clients.communities?.close();
  clients.close();
}
