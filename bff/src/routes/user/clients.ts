import { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import { ProfilesServiceClient } from '@spinroom/contracts/user/v1/profiles';
import { MobileServiceClient } from '@spinroom/contracts/user/v1/mobile';
import { ModerationServiceClient } from '@spinroom/contracts/user/v1/moderation';
import { SessionsServiceClient } from '@spinroom/contracts/user/v1/sessions';
import { ProvidersServiceClient } from '@spinroom/contracts/user/v1/providers';
import { MailServiceClient } from '@spinroom/contracts/user/v1/mail';
import { PasskeysServiceClient } from '@spinroom/contracts/user/v1/passkeys';
import { createGrpcClient, type PromiseClient } from '@spinroom/platform/core';

export type UserClient = PromiseClient<UserServiceClient>;

/**
 * One client per gRPC service the user service serves, all on its one address.
 * A new user-service area (its own proto service) adds one line here.
 */
export function createUserClients(address: string) {
  return {
    accounts: createGrpcClient(UserServiceClient, address) as UserClient,
    profiles: createGrpcClient(ProfilesServiceClient, address),
    mobile: createGrpcClient(MobileServiceClient, address),
    moderation: createGrpcClient(ModerationServiceClient, address),
    sessions: createGrpcClient(SessionsServiceClient, address),
    providers: createGrpcClient(ProvidersServiceClient, address),
    mail: createGrpcClient(MailServiceClient, address),
    passkeys: createGrpcClient(PasskeysServiceClient, address),
  };
}

export type UserClients = ReturnType<typeof createUserClients>;

export function closeUserClients(clients: UserClients): void {
  for (const client of Object.values(clients)) client.close();
}
