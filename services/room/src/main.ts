import { roomService } from './app.js';

await roomService.main();
