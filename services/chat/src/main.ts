import { closeOnSignals, createLogger, loadConfigOrExit } from '@spinroom/platform';
import { startChatService } from './app.js';
import { chatServiceConfig } from './config.js';

const config = loadConfigOrExit(chatServiceConfig);
// The room service's client joins here once its contract (GetRoomAccess) is in the repository.
const service = await startChatService(config);
closeOnSignals(createLogger('chat'), () => service.stop());
