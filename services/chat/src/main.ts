import { closeOnSignals, createLogger, loadConfigOrExit } from '@spinroom/platform';
import { startChatService } from './app.js';
import { chatServiceConfig } from './config.js';

const config = loadConfigOrExit(chatServiceConfig);
const service = await startChatService(config);
closeOnSignals(createLogger('chat'), () => service.stop());
