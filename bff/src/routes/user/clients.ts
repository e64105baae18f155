import type { UserServiceClient } from '@spinroom/contracts/user/v1/user_service';
import type { PromiseClient } from '@spinroom/platform/core';

export type UserClient = PromiseClient<UserServiceClient>;
