import type { ChatServiceClient } from '@spinroom/contracts/chat/v1/chat_service';
import type { PromiseClient } from '@spinroom/platform';

export type ChatClient = PromiseClient<ChatServiceClient>;
