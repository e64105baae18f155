import { socialService } from './app.js';

await socialService.main();
