import { closeOnSignals, createLogger, loadConfigOrExit } from '@spinroom/platform';
import { startUserService } from './app.js';
import { userServiceConfig } from './config.js';

const config = loadConfigOrExit(userServiceConfig);
const service = await startUserService(config);
closeOnSignals(createLogger('user'), () => service.stop());
