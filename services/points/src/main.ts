import { pointsService } from './app.js';

await pointsService.main();
