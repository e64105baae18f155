import { closeOnSignals, ConfigError, createLogger, loadConfigOrExit } from '@spinroom/platform';
import { startPlaylistService } from './app.js';
import { playlistServiceConfig } from './config.js';
import { createProviders } from './providers/index.js';

const config = loadConfigOrExit(playlistServiceConfig);
const providers = (() => {
  try {
    return createProviders(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`); // a wrong provider variable stops the start, naming it
    process.exit(78);
  }
})();
const service = await startPlaylistService(config, { providers });
closeOnSignals(createLogger('playlist'), () => service.stop());
