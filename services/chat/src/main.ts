import { chatService } from './app.js';

await chatService.main();
