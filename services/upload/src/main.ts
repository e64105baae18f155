import { closeOnSignals, ConfigError, createLogger, loadConfigOrExit } from '@spinroom/platform';
import { startUploadService } from './app.js';
import { objectStoreSettings, uploadServiceConfig } from './config.js';

const config = loadConfigOrExit(uploadServiceConfig);
try {
  objectStoreSettings(config); // how the UPLOAD_S3_* variables combine
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(78); // EX_CONFIG, as loadConfigOrExit
}
const service = await startUploadService(config);
closeOnSignals(createLogger('upload'), () => service.stop());
