import type { RoomServiceClient } from '@spinroom/contracts/room/v1/room_service';
import type { PromiseClient } from '@spinroom/platform/core';

export type RoomClient = PromiseClient<RoomServiceClient>;
