import { closeOnSignals, createLogger, loadConfigOrExit } from '@spinroom/platform';
import { startUploadService } from './app.js';
import { uploadServiceConfig } from './config.js';

const config = loadConfigOrExit(uploadServiceConfig);
const service = await startUploadService(config);
closeOnSignals(createLogger('upload'), () => service.stop());
