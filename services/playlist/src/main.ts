import { closeOnSignals, createLogger, loadConfigOrExit } from '@spinroom/platform';
import { startPlaylistService } from './app.js';
import { playlistServiceConfig } from './config.js';

const config = loadConfigOrExit(playlistServiceConfig);
const service = await startPlaylistService(config);
closeOnSignals(createLogger('playlist'), () => service.stop());
