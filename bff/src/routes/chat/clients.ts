import type { ChatServiceClient } from '@spinroom/contracts/chat/v1/chat_service';
import type { PromiseClient } from '@spinroom/platform/core';

export type ChatClient = PromiseClient<ChatServiceClient>;
