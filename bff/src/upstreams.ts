import { ChatServiceClient } from '@spinroom/contracts/chat/v1/chat_service';
import { PlaylistServiceClient } from '@spinroom/contracts/playlist/v1/playlist_service';
import { UploadServiceClient } from '@spinroom/contracts/upload/v1/upload_service';
import { createGrpcClient, type ServiceName } from '@spinroom/platform/core';
import { createAuditClient } from './routes/audit/index.js';
import { createPaymentClient } from './routes/payment/index.js';
import { closeRoomClients, createRoomClients } from './routes/room/clients.js';
import { closePointsClients, createPointsClients } from './routes/points/index.js';
import { closeSocialClients, createSocialClients } from './routes/social/index.js';
import { closeUserClients, createUserClients } from './routes/user/index.js';

/**
 * How the BFF reaches each service of the list: its clients from the
 * service's address, and how they close. The `satisfies` makes a new entry in
 * the list of services a type error here until the BFF knows its clients; the
 * BFF's config, `main`, readiness and the test platform read this map.
 */
const UPSTREAMS = {
  user: { open: createUserClients, close: closeUserClients },
  playlist: { open: (address: string) => createGrpcClient(PlaylistServiceClient, address), close: closeOne },
  upload: { open: (address: string) => createGrpcClient(UploadServiceClient, address), close: closeOne },
  room: { open: createRoomClients, close: closeRoomClients },
  chat: { open: (address: string) => createGrpcClient(ChatServiceClient, address), close: closeOne },
  points: { open: createPointsClients, close: closePointsClients },
  payment: { open: createPaymentClient, close: closeOne },
  social: { open: createSocialClients, close: closeSocialClients },
  audit: { open: createAuditClient, close: closeOne },
} satisfies { [N in ServiceName]: { open(address: string): unknown; close(clients: never): void } };

function closeOne(client: { close(): void }): void {
  client.close();
}

type Clients<N extends ServiceName> = ReturnType<(typeof UPSTREAMS)[N]['open']>;

/** Every service's clients, by the service's name in the list. */
export type Upstreams = { [N in ServiceName]: Clients<N> };

/** Opens every service's clients from its address (`USER_ADDR`... in the BFF's config). */
export function openUpstreams(addresses: Record<ServiceName, string>): Upstreams & { close(): void } {
  const names = Object.keys(UPSTREAMS) as ServiceName[];
  const upstreams = Object.fromEntries(names.map((name) => [name, UPSTREAMS[name].open(addresses[name])])) as Upstreams;
  return {
    ...upstreams,
    close() {
      for (const name of names) (UPSTREAMS[name].close as (clients: unknown) => void)(upstreams[name]);
    },
  };
}
