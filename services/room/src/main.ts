import { closeOnSignals, createLogger, loadConfigOrExit } from '@spinroom/platform';
import { startRoomService } from './app.js';
import { roomServiceConfig } from './config.js';

const config = loadConfigOrExit(roomServiceConfig);
const service = await startRoomService(config);
closeOnSignals(createLogger('room'), () => service.stop());
