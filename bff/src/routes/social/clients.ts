import { SocialServiceClient } from '@spinroom/contracts/social/v1/social_service';
import { createGrpcClient, type PromiseClient } from '@spinroom/platform/core';
import { createNotificationClient } from './notifications.js';

export type SocialClient = PromiseClient<SocialServiceClient>;

/**
 * One client per gRPC service the social service serves, all on its one
 * address. Its notifications (their own proto service) add one line here.
 */
export function createSocialClients(address: string) {
  return {
    social: createGrpcClient(SocialServiceClient, address) as SocialClient,
    notifications: createNotificationClient(address),
  };
}

export type SocialClients = ReturnType<typeof createSocialClients>;

export function closeSocialClients(clients: SocialClients): void {
  for (const client of Object.values(clients)) client.close();
}
